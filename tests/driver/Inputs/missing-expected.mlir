func.func @f() {
  // This file has no error, so the directive below is never matched.
  // expected-error @+1 {{this error never comes}}
  return
}
