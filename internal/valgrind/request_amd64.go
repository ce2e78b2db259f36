package valgrind

// request makes a Valgrind client request: args holds the request's code
// and up to five arguments. It returns def when the process does not run
// under Valgrind.
//
//go:noescape
func request(args *[6]uintptr, def uintptr) uintptr
