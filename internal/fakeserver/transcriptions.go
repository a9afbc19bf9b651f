package fakeserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// transcriptionsPath is where the listings' page links point, in the form
// the spec gives them: {base_url}/v2/transcription?status=…&offset=…&limit=….
const transcriptionsPath = "/v2/transcription"

// handleListTranscriptions answers GET /v2/transcription, the listing the
// page links of GET /v2/live and GET /v2/pre-recorded lead to: jobs of the
// kind its kind parameter names (pre-recorded or live), or of both kinds
// when it is left out, with the same filters and page shape. The spec shows
// only the links' form; the kind, which keeps a followed link on the jobs of
// the listing it came from, is this emulator's.
func (s *Server) handleListTranscriptions(w http.ResponseWriter, r *http.Request, _ string) {
	f, ok := s.listFilter(w, r, true)
	switch {
	case !ok:
	case f.kind == client.KindLive:
		s.listLive(w, r, f)
	case f.kind == client.KindPreRecorded:
		s.listPreRecorded(w, r, f)
	default:
		s.listEveryKind(w, r, f)
	}
}

// listEveryKind answers a page of the jobs of both kinds, merged in listing
// order.
func (s *Server) listEveryKind(w http.ResponseWriter, r *http.Request, f listFilter) {
	rb := recordBuilds{items: []json.RawMessage{}}
	s.mu.Lock()
	now, liveNow := s.settleAll(), s.liveNow()
	pre, live := s.preRecordedOrdered(), s.live.ordered()
	matching := 0
	for len(pre) > 0 || len(live) > 0 {
		var (
			createdAt time.Time
			status    string
			metadata  map[string]any
			add       func()
		)
		if len(live) == 0 || len(pre) > 0 && listingOrder(pre[0].createdAt, pre[0].id, live[0].createdAt, live[0].id) < 0 {
			j := pre[0]
			pre = pre[1:]
			createdAt, status, metadata = j.createdAt, j.status(now), j.customMetadata
			add = func() { rb.items = append(rb.items, encodeRecord(j.record(now))) }
		} else {
			e := live[0]
			live = live[1:]
			createdAt, status, metadata = e.createdAt, e.statusAt(liveNow), e.customMetadata
			add = func() { rb.add(e, liveNow) }
		}
		if !f.matches(createdAt, status, metadata) {
			continue
		}
		if f.onPage(matching) {
			add()
		}
		matching++
	}
	s.mu.Unlock()
	writeEncodedPage(w, listPage(f, r, "", matching, s.finishRecords(&rb)))
}

// listingOrder orders jobs as the listings do: newest first, then by id.
func listingOrder(createdA time.Time, idA string, createdB time.Time, idB string) int {
	if c := createdB.Compare(createdA); c != 0 {
		return c
	}
	return strings.Compare(idA, idB)
}
