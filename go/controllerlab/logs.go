package controllerlab

import (
	"fmt"

	"github.com/go-logr/logr"
)

// What a reconcile logs through the logger in its context (log.FromContext(ctx)) still goes to the
// program's own logger, and is also sent to Controller Lab as that reconcile's log lines. Verbose
// lines (V(n) > 0) are sent only when the program's logger would print them.

type teeSink struct {
	inner  logr.LogSink
	send   func(LogLine)
	values []any
}

func newTeeLogger(base logr.Logger, send func(LogLine)) logr.Logger {
	return logr.New(&teeSink{inner: base.GetSink(), send: send})
}

func (s *teeSink) Init(info logr.RuntimeInfo) {
	if s.inner != nil {
		s.inner.Init(logr.RuntimeInfo{CallDepth: info.CallDepth + 1})
	}
}

func (s *teeSink) innerEnabled(level int) bool {
	return s.inner != nil && s.inner.Enabled(level)
}

func (s *teeSink) Enabled(level int) bool {
	return level == 0 || s.innerEnabled(level)
}

func (s *teeSink) Info(level int, msg string, keysAndValues ...any) {
	if s.innerEnabled(level) {
		s.inner.Info(level, msg, keysAndValues...)
	}
	s.send(LogLine{Level: "info", Message: msg, Fields: fieldsOf(s.values, keysAndValues), At: nowMs()})
}

func (s *teeSink) Error(err error, msg string, keysAndValues ...any) {
	if s.inner != nil {
		s.inner.Error(err, msg, keysAndValues...)
	}
	message := msg
	if err != nil {
		message = msg + ": " + err.Error()
	}
	s.send(LogLine{Level: "error", Message: message, Fields: fieldsOf(s.values, keysAndValues), At: nowMs()})
}

func (s *teeSink) WithValues(keysAndValues ...any) logr.LogSink {
	c := *s
	if s.inner != nil {
		c.inner = s.inner.WithValues(keysAndValues...)
	}
	c.values = append(append([]any(nil), s.values...), keysAndValues...)
	return &c
}

func (s *teeSink) WithName(name string) logr.LogSink {
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
