package controllerlab

import (
	"strconv"
	"strings"
)

// decodeFateBatch reads a batch as the parent does (fateBatch.ts), for tests: the module itself
// only writes them.
func decodeFateBatch(data string) []EventFate {
	var out []EventFate
	var ctx []string
	var at int64
	for _, line := range strings.Split(data, "\n") {
		if line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if fields[0] == "C" && len(fields) == 6 {
			ctx = make([]string, 6)
			for i, f := range fields {
				ctx[i] = unescapeField(f)
			}
			continue
		}
		if ctx == nil || len(fields) != 7 {
			continue
		}
		delta, _ := strconv.ParseInt(fields[6], 10, 64)
		at += delta
		f := EventFate{Controller: ctx[1], Type: ctx[2], APIVersion: ctx[3], Kind: ctx[4], Via: ctx[5], Key: unescapeField(fields[1]), ResourceVersion: unescapeField(fields[2]), At: at}
		f.Fate = map[string]string{"e": "enqueued", "m": "merged", "w": "waiting", "f": "filtered", "u": "unmapped"}[fields[0]]
		named, hasNamed := "", fields[3] != ""
		if hasNamed {
			named = unescapeField(fields[3][1:])
		}
		switch {
		case f.Fate == "filtered":
			f.Predicate = named
		case hasNamed:
			f.Request = named
		case f.Fate != "unmapped":
			f.Request = f.Key
		}
		f.KeyState = map[string]string{"q": "queued", "p": "processing", "w": "waiting"}[fields[4]]
		if fields[5] != "" {
			ms, _ := strconv.ParseFloat(fields[5], 64)
			f.BackoffMs = &ms
		}
		out = append(out, f)
	}
	return out
}

func unescapeField(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// DecodeFateBatch is decodeFateBatch for the tests of package controllerlab_test.
var DecodeFateBatch = decodeFateBatch
