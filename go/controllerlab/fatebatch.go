package controllerlab

import (
	"strconv"
	"strings"
)

// Event fates go to the parent in batches of one string each, in the format the TypeScript host
// writes (src/controllerProtocol/fateBatch.ts): one record per line, fields separated by tabs, and
// `\`, tab and newline in a field escaped as `\\`, `\t`, `\n`. A context record, written when it
// changes, holds what consecutive fates share:
//
//	C  controller  type  apiVersion  kind  via
//
// then one record per fate:
//
//	code  key  resourceVersion  extra  keyState  backoffMs  atDelta
//
// code: e(nqueued) m(erged) w(aiting) f(iltered) u(nmapped); extra: empty for a request equal to
// the key (or no predicate), else "+" and the request or predicate; keyState: q p w or empty;
// backoffMs: empty when absent; atDelta: ms since the batch's previous fate (the first: since 0).
// An object (and a JSON encoding) per fate cost the parent more than the fate cost here.

// fateBatch collects fates until the writer sends them as one message.
type fateBatch struct {
	buf    []byte
	n      int
	lastAt int64
	ctx    [5]string
	hasCtx bool
}

type fatesMessage struct {
	Type  string `json:"type"`
	Data  string `json:"data"`
	Count int    `json:"count"`
}

func fateCode(fate string) byte {
	switch fate {
	case "enqueued":
		return 'e'
	case "merged":
		return 'm'
	case "waiting":
		return 'w'
	case "filtered":
		return 'f'
	case "unmapped":
		return 'u'
	}
	return 0
}

func keyStateCode(s string) string {
	switch s {
	case "queued":
		return "q"
	case "processing":
		return "p"
	case "waiting":
		return "w"
	}
	return ""
}

func (b *fateBatch) add(f *EventFate) {
	ctx := [5]string{f.Controller, f.Type, f.APIVersion, f.Kind, f.Via}
	if !b.hasCtx || ctx != b.ctx {
		b.ctx, b.hasCtx = ctx, true
		b.buf = append(b.buf, 'C')
		for _, s := range ctx {
			b.buf = append(b.buf, '\t')
			b.buf = appendField(b.buf, s)
		}
		b.buf = append(b.buf, '\n')
	}
	code := fateCode(f.Fate)
	if code == 0 {
		return
	}
	b.buf = append(b.buf, code, '\t')
	b.buf = appendField(b.buf, f.Key)
	b.buf = append(b.buf, '\t')
	b.buf = appendField(b.buf, f.ResourceVersion)
	b.buf = append(b.buf, '\t')
	if named, ok := extraOf(f); ok {
		b.buf = append(b.buf, '+')
		b.buf = appendField(b.buf, named)
	}
	b.buf = append(b.buf, '\t')
	b.buf = append(b.buf, keyStateCode(f.KeyState)...)
	b.buf = append(b.buf, '\t')
	if f.BackoffMs != nil {
		b.buf = strconv.AppendFloat(b.buf, *f.BackoffMs, 'f', -1, 64)
	}
	b.buf = append(b.buf, '\t')
	b.buf = strconv.AppendInt(b.buf, f.At-b.lastAt, 10)
	b.buf = append(b.buf, '\n')
	b.lastAt = f.At
	b.n++
}

// extraOf is the request or predicate a fate's record names, unless it goes without saying: a
// request equal to the key, no predicate, an unmapped event's missing request.
func extraOf(f *EventFate) (string, bool) {
	switch f.Fate {
	case "filtered":
		return f.Predicate, f.Predicate != ""
	case "unmapped":
		return f.Request, f.Request != ""
	}
	return f.Request, f.Request != f.Key
}

func (b *fateBatch) message() fatesMessage {
	return fatesMessage{Type: "fates", Data: string(b.buf), Count: b.n}
}

// appendField appends s with `\`, tab and newline escaped.
func appendField(buf []byte, s string) []byte {
	if !strings.ContainsAny(s, "\\\t\n") {
		return append(buf, s...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			buf = append(buf, '\\', '\\')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\n':
			buf = append(buf, '\\', 'n')
		default:
			buf = append(buf, c)
		}
	}
	return buf
}
