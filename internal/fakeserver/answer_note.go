package fakeserver

import (
	"context"
	"net/http"
)

// AnswerNote is what the server tells a request's logger of its answer
// that the answer itself does not say: an injected fault looks like the
// service's own refusal on the wire.
type AnswerNote struct {
	// Fault names the fault setting that chose the answer (rate_limit_ratio,
	// server_error_ratio, lost_answer_ratio); empty for a genuine answer.
	Fault string
	// LostStatus and LostAnswer are the status and the start of the body
	// of an answer lost by fault injection (Faults.LostAnswerRatio), which
	// its client never received: a create's names the job it made.
	LostStatus int
	LostAnswer []byte
	// Closed says how a connection taken over from HTTP (a WebSocket) was
	// ended, which its status (101) does not.
	Closed string
}

type answerNoteKey struct{}

// WithAnswerNote returns r carrying a note that the server fills in as it
// answers r, for a logger around the server to read once it has.
func WithAnswerNote(r *http.Request) (*http.Request, *AnswerNote) {
	note := &AnswerNote{}
	return r.WithContext(context.WithValue(r.Context(), answerNoteKey{}, note)), note
}

// noteOf is the note r's logger asked for, or nil.
func noteOf(r *http.Request) *AnswerNote {
	note, _ := r.Context().Value(answerNoteKey{}).(*AnswerNote)
	return note
}

// noteFault tells r's logger, if it asked, that the fault setting named
// chose r's answer.
func noteFault(r *http.Request, fault string) {
	if note := noteOf(r); note != nil {
		note.Fault = fault
	}
}
