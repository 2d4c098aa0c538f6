module attributes {x = array<
// a comment
index: 8>} {}
