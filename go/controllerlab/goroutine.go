package controllerlab

import "runtime"

// goroutineID is the current goroutine's number, read from the first line of its stack trace
// ("goroutine 42 [running]:"). Go exposes no other way; it is used only while attached, to learn
// which informer event a workqueue Add comes from (client-go calls each event handler, and the
// handler calls Add, on one goroutine) and which worker runs a reconcile.
func goroutineID() uint64 {
	var buf [40]byte
	n := runtime.Stack(buf[:], false)
	const prefix = "goroutine "
	if n <= len(prefix) {
		return 0
	}
	var id uint64
	for _, c := range buf[len(prefix):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}
