!t = index
module attributes {x = array<!t: 1, 2>} {}
