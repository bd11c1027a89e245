// A client-go shared informer as a peer in `npm run bench:informer`: the same server, the same list
// and watch stream as our informer, measured the same way (sync, watch events/s, CPU per event, peak
// RSS, live heap). It also renders a benchmark stream as protobuf, so the server can offer client-go
// its own wire format for built-in kinds.
//
//	client-go-informer run --server URL --resource configmaps --namespace bench --objects N --events E [--protobuf]
//	client-go-informer render --resource configmaps --list list.json --watch watch.jsonl --out DIR
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: client-go-informer run|render [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "run":
		err = runInformer(os.Args[2:])
	case "render":
		err = renderProtobuf(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
