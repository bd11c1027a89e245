package controllerlab

import (
	"fmt"

	"github.com/go-logr/logr"
)

// What a reconcile logs through the logger in its context (log.FromContext(ctx)) is sent to
// Controller Lab as that reconcile's log lines, which `controller-lab run` and the debugger print
// beside the reconcile they belong to. The program's own logger does not print them too (the same
// line twice, the second with a stack trace in zap's development mode); it still decides which
// verbose lines (V(n) > 0) are sent at all.

type labSink struct {
	inner  logr.LogSink
	send   func(LogLine)
	values []any
}

func newLabLogger(base logr.Logger, send func(LogLine)) logr.Logger {
	return logr.New(&labSink{inner: base.GetSink(), send: send})
}

func (s *labSink) Init(info logr.RuntimeInfo) {
	if s.inner != nil {
		s.inner.Init(logr.RuntimeInfo{CallDepth: info.CallDepth + 1})
	}
}

func (s *labSink) innerEnabled(level int) bool {
	return s.inner != nil && s.inner.Enabled(level)
}

func (s *labSink) Enabled(level int) bool {
	return level == 0 || s.innerEnabled(level)
}

func (s *labSink) Info(level int, msg string, keysAndValues ...any) {
	if !s.Enabled(level) {
		return
	}
	s.send(LogLine{Level: "info", Message: msg, Fields: fieldsOf(s.values, keysAndValues), At: nowMs()})
}

func (s *labSink) Error(err error, msg string, keysAndValues ...any) {
	message := msg
	if err != nil {
		message = msg + ": " + err.Error()
	}
	s.send(LogLine{Level: "error", Message: message, Fields: fieldsOf(s.values, keysAndValues), At: nowMs()})
}

func (s *labSink) WithValues(keysAndValues ...any) logr.LogSink {
	c := *s
	if s.inner != nil {
		c.inner = s.inner.WithValues(keysAndValues...)
	}
	c.values = append(append([]any(nil), s.values...), keysAndValues...)
	return &c
}

func (s *labSink) WithName(name string) logr.LogSink {
	c := *s
	if s.inner != nil {
		c.inner = s.inner.WithName(name)
	}
	return &c
}

// fieldsOf turns key/value pairs into JSON-safe fields: basic values as they are, errors and
// Stringers as text, anything else as %v (a channel or a func must not break the stream).
func fieldsOf(pairs ...[]any) map[string]any {
	var fields map[string]any
	for _, kv := range pairs {
		for i := 0; i+1 < len(kv); i += 2 {
			if fields == nil {
				fields = map[string]any{}
			}
			key, ok := kv[i].(string)
			if !ok {
				key = fmt.Sprint(kv[i])
			}
			fields[key] = jsonSafe(kv[i+1])
		}
	}
	return fields
}

func jsonSafe(v any) any {
	switch x := v.(type) {
	case nil, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32:
		return x
	case float64:
		return x
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	default:
		return fmt.Sprintf("%v", x)
	}
}
