// Package proctest proves that no child of serbench outlives its parent:
// a test starts a parent process (usually its own binary, in a mode that
// starts a child through worker.Pool), waits for the child, kills the
// parent with SIGKILL and looks for the child after. It reads /proc, so
// it exists on Linux only.
package proctest
