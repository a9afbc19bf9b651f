package fakeserver

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// liveEntry is one live job: the fields the listing filters on, and the full
// record. Seeded jobs build their record on first use (see live_seed.go), so
// seeding thousands of them stays cheap.
type liveEntry struct {
	id             string
	createdAt      time.Time
	status         string
	customMetadata map[string]any
	seed           *liveSeed       // nil for jobs added whole
	job            *client.LiveJob // nil until built
}

func newAddedLiveEntry(j client.LiveJob) *liveEntry {
	created, _ := time.Parse(time.RFC3339Nano, j.CreatedAt)
	return &liveEntry{id: j.ID, createdAt: created, status: j.Status, customMetadata: j.CustomMetadata, job: &j}
}

// record returns the entry's full record, building it on first use.
func (e *liveEntry) record() *client.LiveJob {
	if e.job == nil {
		e.job = e.seed.build(e)
	}
	return e.job
}

// liveStore holds the live jobs, kept in listing order: newest first, then by id.
type liveStore struct {
	entries []*liveEntry
	byID    map[string]*liveEntry
	sorted  bool
}

func newLiveStore(n int, now time.Time) liveStore {
	st := liveStore{byID: make(map[string]*liveEntry, n)}
	st.entries = make([]*liveEntry, 0, n)
	for i := range n {
		st.put(seededLiveEntry(i, now))
	}
	return st
}

// put adds e, replacing a job with the same id.
func (st *liveStore) put(e *liveEntry) {
	if old, ok := st.byID[e.id]; ok {
		*old = *e
	} else {
		st.entries = append(st.entries, e)
		st.byID[e.id] = e
	}
	st.sorted = false
}

func (st *liveStore) ordered() []*liveEntry {
	if !st.sorted {
		sort.Slice(st.entries, func(a, b int) bool {
			ea, eb := st.entries[a], st.entries[b]
			if !ea.createdAt.Equal(eb.createdAt) {
				return ea.createdAt.After(eb.createdAt)
			}
			return ea.id < eb.id
		})
		st.sorted = true
	}
	return st.entries
}

func (s *Server) lookupLiveJob(id string) (client.LiveJob, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.live.byID[id]
	if !ok {
		return client.LiveJob{}, false
	}
	return *e.record(), true
}

func (s *Server) handleListLive(w http.ResponseWriter, r *http.Request, _ string) {
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		s.writeError(w, r, http.StatusBadRequest, "the query string cannot be parsed: "+err.Error())
		return
	}
	f, problems := parseLiveFilter(query)
	if len(problems) > 0 {
		s.writeError(w, r, http.StatusBadRequest, "invalid query parameters", problems...)
		return
	}

	items := []client.LiveJob{}
	matching := 0
	end := f.offset + f.limit
	if end < f.offset { // overflow: the page runs to the last item
		end = math.MaxInt
	}
	s.mu.Lock()
	for _, e := range s.live.ordered() {
		if !f.matches(e) {
			continue
		}
		if matching >= f.offset && matching < end {
			items = append(items, *e.record())
		}
		matching++
	}
	s.mu.Unlock()

	link := func(offset int) string {
		q := f.echo.Encode()
		if q != "" {
			q += "&"
		}
		return fmt.Sprintf("%s/v2/live?%soffset=%d&limit=%d", baseURL(r), q, offset, f.limit)
	}
	page := client.LivePage{First: link(0), Current: link(f.offset), Items: items}
	if end < matching {
		page.Next = pointerTo(link(end))
	}
	writeJSON(w, http.StatusOK, page)
}

// liveFilter is the parsed query of GET /v2/live.
type liveFilter struct {
	offset, limit int
	date          string // YYYY-MM-DD, the UTC day of created_at
	after, before *time.Time
	statuses      []string
	metadata      map[string]string
	echo          url.Values // the filters as given, repeated in page links
}

// parseLiveFilter reads the listing's query parameters, naming each one that
// is invalid or unknown.
func parseLiveFilter(q url.Values) (liveFilter, []string) {
	f := liveFilter{limit: client.DefaultLiveListLimit, metadata: map[string]string{}, echo: url.Values{}}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	for _, key := range orderedKeys(q) {
		values := q[key]
		metaKey, isMeta := customMetadataKey(key)
		single := key != "status"
		if single && len(values) > 1 {
			bad("%s must be given at most once", key)
			continue
		}
		v := values[0]
		switch {
		case key == "offset":
			n, err := strconv.Atoi(v)
			switch {
			case err != nil:
				bad("offset must be an integer (got %q)", v)
			case n < client.MinListOffset:
				bad("offset must not be less than %d", client.MinListOffset)
			default:
				f.offset = n
			}
		case key == "limit":
			n, err := strconv.Atoi(v)
			switch {
			case err != nil:
				bad("limit must be an integer (got %q)", v)
			case n < client.MinListLimit:
				bad("limit must not be less than %d", client.MinListLimit)
			default:
				f.limit = n
			}
		case key == "date":
			if d, err := time.Parse(client.DateFilterLayout, v); err != nil || d.Format(client.DateFilterLayout) != v {
				bad("date must be a calendar day in the form YYYY-MM-DD (got %q)", v)
			} else {
				f.date = v
				f.echo.Set(key, v)
			}
		case key == "after_date" || key == "before_date":
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				bad("%s must be an ISO 8601 date-time such as 2024-05-01T12:00:00Z (got %q)", key, v)
				continue
			}
			if key == "after_date" {
				f.after = &t
			} else {
				f.before = &t
			}
			f.echo.Set(key, v)
		case key == "status":
			for _, st := range values {
				if client.Contains(client.JobStatuses, st) {
					f.statuses = append(f.statuses, st)
					f.echo.Add(key, st)
				} else {
					bad("status must be one of: %s (got %q)", strings.Join(client.JobStatuses, ", "), st)
				}
			}
		case isMeta:
			f.metadata[metaKey] = v
			f.echo.Set(key, v)
		default:
			bad("unknown query parameter %q", key)
		}
	}
	return f, problems
}

// customMetadataKey reads the key of a custom_metadata[key] parameter.
func customMetadataKey(param string) (string, bool) {
	inner, ok := strings.CutPrefix(param, "custom_metadata[")
	if !ok {
		return "", false
	}
	inner, ok = strings.CutSuffix(inner, "]")
	if !ok || inner == "" || strings.ContainsAny(inner, "[]") {
		return "", false
	}
	return inner, true
}

func (f liveFilter) matches(e *liveEntry) bool {
	if f.date != "" && e.createdAt.UTC().Format(client.DateFilterLayout) != f.date {
		return false
	}
	if f.after != nil && !e.createdAt.After(*f.after) {
		return false
	}
	if f.before != nil && !e.createdAt.Before(*f.before) {
		return false
	}
	if len(f.statuses) > 0 && !client.Contains(f.statuses, e.status) {
		return false
	}
	for k, want := range f.metadata {
		got, ok := e.customMetadata[k]
		if !ok || got == nil || fmt.Sprint(got) != want {
			return false
		}
	}
	return true
}
