package fakeserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// liveEntry is one live job: the fields the listing filters on, and the full
// record, kept as the JSON the service sends. Seeded jobs build their record
// on first use (see live_seed.go), so seeding thousands of them stays cheap.
// Kept encoded, a listing copies records instead of encoding them again (a
// page of 100 in 0.2 ms instead of 22), for about a quarter more memory than
// decoded ones (566 against 456 MB for 10,000 records, measured before
// their final transcript messages, with which they take 961 MB encoded).
type liveEntry struct {
	id             string
	createdAt      time.Time
	completedAt    time.Time // of a job added whole, when it has ended
	status         string
	customMetadata map[string]any
	seed           *liveSeed       // nil for jobs added whole
	encoded        json.RawMessage // the record; nil until built
	building       chan struct{}   // closed when the build under way (recordBuild) ends; nil when none
}

func newAddedLiveEntry(j client.LiveJob) *liveEntry {
	created, _ := time.Parse(time.RFC3339Nano, j.CreatedAt)
	var completed time.Time
	if j.CompletedAt != nil {
		completed, _ = time.Parse(time.RFC3339Nano, *j.CompletedAt)
	}
	return &liveEntry{id: j.ID, createdAt: created, completedAt: completed, status: j.Status, customMetadata: j.CustomMetadata, encoded: encodeRecord(j)}
}

// endsAt is when the job ends, known in advance for a seeded session (its
// status follows the clock there); a job added whole ends only if it was
// added final with a completed_at.
func (e *liveEntry) endsAt() (time.Time, bool) {
	if e.seed != nil {
		return e.seed.completedAt(), true
	}
	return e.completedAt, client.IsFinal(e.status) && !e.completedAt.IsZero()
}

// statusAt is the job's status at now: a seeded session moves on with the
// clock (see liveSeed), dropping a record built for an earlier status, or
// for audio recorded a second or more ago.
func (e *liveEntry) statusAt(now time.Time) string {
	if e.seed == nil || client.IsFinal(e.status) {
		return e.status
	}
	if status := e.seed.statusAt(now); status != e.status {
		e.status, e.encoded = status, nil
	} else if status == client.StatusProcessing && now.Sub(e.seed.builtAt) >= time.Second {
		e.encoded = nil
	}
	return e.status
}

// bodyAt returns the entry's record at now as JSON, building it on first
// use, with the server's lock held (recordBuilds builds without it).
func (e *liveEntry) bodyAt(now time.Time) json.RawMessage {
	e.statusAt(now)
	if e.encoded == nil {
		e.seed.builtAt = now
		e.encoded = encodeRecord(e.seed.build(e))
	}
	return e.encoded
}

// recordBuild is a seeded session's record to build without the server's
// lock: a copy of its entry as it was at the request, so that building
// needs none. Building takes about half a millisecond: a first page of
// thousands held every other request for seconds when built under the
// lock.
type recordBuild struct {
	entry *liveEntry
	from  liveEntry
	body  json.RawMessage
	done  chan struct{} // the entry's building while this build runs
}

// newRecordBuild prepares e's record at now and marks e as being built, so
// that another request waits for it rather than building it again (four
// first reads of 3,000 at once held 1.9 GB). The caller holds the lock.
func newRecordBuild(e *liveEntry, now time.Time) recordBuild {
	from, seed := *e, *e.seed
	seed.builtAt = now
	from.seed = &seed
	b := recordBuild{entry: e, from: from, done: make(chan struct{})}
	e.building = b.done
	return b
}

// run builds the record.
func (b *recordBuild) run() json.RawMessage {
	b.body = encodeRecord(b.from.seed.build(&b.from))
	return b.body
}

// keep stores the built record in its entry, unless the entry moved on
// since: another status, which a request that only filtered on it found
// (the record would keep the old one), or replaced. It then lets the
// requests waiting for it go on. The caller holds the server's lock.
func (b *recordBuild) keep() {
	e := b.entry
	if e.building == b.done {
		e.building = nil
		if b.body != nil && e.encoded == nil && e.status == b.from.status {
			e.encoded, e.seed.builtAt = b.body, b.from.seed.builtAt
		}
	}
	close(b.done)
}

// recordWait is a record another request is building.
type recordWait struct {
	entry *liveEntry
	done  chan struct{}
	now   time.Time
	at    int // its index in the answer's items
}

// recordBuilds gathers, under the server's lock, the records of one answer
// (add), then builds those not built yet once the lock is released, and
// takes those other requests were building (finishRecords).
type recordBuilds struct {
	items  []json.RawMessage
	builds []recordBuild
	at     []int // the index in items of each build
	waits  []recordWait
}

// add appends e's record at now, or a place for it, to be built or waited
// for. The caller holds the server's lock.
func (rb *recordBuilds) add(e *liveEntry, now time.Time) {
	e.statusAt(now)
	switch {
	case e.encoded != nil:
	case e.building != nil:
		rb.waits = append(rb.waits, recordWait{entry: e, done: e.building, now: now, at: len(rb.items)})
	default:
		rb.builds = append(rb.builds, newRecordBuild(e, now))
		rb.at = append(rb.at, len(rb.items))
	}
	rb.items = append(rb.items, e.encoded)
}

// finishRecords builds the missing records without the server's lock held,
// keeping each in its entry as soon as it is built (a request waiting for
// one waits for that record, not for the whole page being built), then
// waits for those other requests were building (its own first, so that two
// requests waiting on each other both go on); it returns every record in
// the order added. Should a build fail (panic), the records not kept are
// released, so that their waiters build them instead of waiting for good.
func (s *Server) finishRecords(rb *recordBuilds) []json.RawMessage {
	if len(rb.builds) == 0 && len(rb.waits) == 0 {
		return rb.items
	}
	kept := 0
	defer func() {
		if kept == len(rb.builds) {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		for i := kept; i < len(rb.builds); i++ {
			rb.builds[i].body = nil // nothing is kept
			rb.builds[i].keep()
		}
	}()
	if s.beforeRecordBuilds != nil {
		s.beforeRecordBuilds(len(rb.builds), len(rb.waits))
	}
	for i := range rb.builds {
		if s.beforeRecordBuild != nil {
			s.beforeRecordBuild(i)
		}
		rb.items[rb.at[i]] = rb.builds[i].run()
		s.mu.Lock()
		rb.builds[i].keep()
		kept++
		s.mu.Unlock()
	}
	for _, w := range rb.waits {
		<-w.done
	}
	if len(rb.waits) > 0 {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, w := range rb.waits {
			// Kept by the request that built it, unless the session moved
			// on meanwhile: then built here (rarely).
			rb.items[w.at] = w.entry.bodyAt(w.now)
		}
	}
	return rb.items
}

// encodeRecord is what writeJSON sends of v.
func encodeRecord(v any) json.RawMessage {
	data, err := marshalJSON(v)
	if err != nil {
		panic("fakeserver: encoding a record: " + err.Error())
	}
	return data
}

// liveStore holds the live jobs, kept in listing order: newest first, then by id.
type liveStore struct {
	entries []*liveEntry
	byID    map[string]*liveEntry
	sorted  bool
	// retention, when above 0, is how long a job is kept once it ended;
	// expiries says when each is due to go, so that a request finds the
	// due ones without looking at every job (seeded sessions end every few
	// milliseconds when 200,000 are spread over an hour).
	retention time.Duration
	expiries  expiryQueue
}

// newLiveStore seeds n live jobs, those that have ended within retention
// when it is above 0 and shorter than the week they are spread over.
func newLiveStore(n int, now time.Time, retention time.Duration) liveStore {
	st := liveStore{byID: make(map[string]*liveEntry, n), retention: max(retention, 0)}
	st.entries = make([]*liveEntry, 0, n)
	for i := range n {
		st.put(seededLiveEntry(i, now, retention))
	}
	return st
}

// put adds e, replacing a job with the same id.
func (st *liveStore) put(e *liveEntry) {
	if old, ok := st.byID[idKey(e.id)]; ok {
		*old = *e
	} else {
		st.entries = append(st.entries, e)
		st.byID[idKey(e.id)] = e
	}
	st.sorted = false
	st.noteExpiry(e)
}

// noteExpiry queues e's expiry, if it ends. The queue keeps items of jobs
// removed or replaced since (expire skips them): when they outnumber the
// jobs held, it is built again from those.
func (st *liveStore) noteExpiry(e *liveEntry) {
	if st.retention <= 0 {
		return
	}
	if len(st.expiries) > 2*len(st.entries)+1024 {
		st.expiries = st.expiries[:0]
		for _, held := range st.entries {
			st.queueExpiry(held)
		}
		if st.byID[idKey(e.id)] == e {
			return // queued with the others
		}
	}
	st.queueExpiry(e)
}

func (st *liveStore) queueExpiry(e *liveEntry) {
	if end, ok := e.endsAt(); ok {
		st.expiries.add(end.Add(st.retention), expiringLive, e.id)
	}
}

// expire drops the jobs that ended retention or more before now, as the
// service forgets a stream and its transcript at the end of the account's
// retention (the spec's Data retention), and says how many; none when
// retention is 0.
func (st *liveStore) expire(now time.Time) (expired int) {
	gone := map[*liveEntry]bool{}
	for {
		due, ok := st.expiries.popDue(now)
		if !ok {
			break
		}
		// Removed since, or added again with another end: not this expiry.
		e, held := st.byID[idKey(due.id)]
		if !held {
			continue
		}
		if end, ends := e.endsAt(); !ends || now.Before(end.Add(st.retention)) {
			continue
		}
		delete(st.byID, idKey(due.id))
		gone[e] = true
	}
	if len(gone) > 0 {
		st.entries = slices.DeleteFunc(st.entries, func(e *liveEntry) bool { return gone[e] })
	}
	return len(gone)
}

// liveNow reads the live clock and forgets the live jobs whose retention
// has ended by then, so that what a request sees never depends on when it
// was last looked at. Callers hold s.mu.
func (s *Server) liveNow() time.Time {
	now := s.liveClock.Now()
	s.stats.JobsExpired += s.live.expire(now)
	return now
}

func (st *liveStore) ordered() []*liveEntry {
	if !st.sorted {
		slices.SortFunc(st.entries, func(a, b *liveEntry) int { return listingOrder(a.createdAt, a.id, b.createdAt, b.id) })
		st.sorted = true
	}
	return st.entries
}

func (s *Server) lookupLiveJob(id string) (client.LiveJob, bool) {
	body, ok := s.lookupLiveBody(id)
	if !ok {
		return client.LiveJob{}, false
	}
	var j client.LiveJob
	if err := json.Unmarshal(body, &j); err != nil {
		panic("fakeserver: decoding a live record: " + err.Error())
	}
	return j, true
}

// lookupLiveBody is the live job's record as the service sends it.
func (s *Server) lookupLiveBody(id string) (json.RawMessage, bool) {
	var rb recordBuilds
	s.mu.Lock()
	now := s.liveNow() // expires what is due first
	e, ok := s.live.byID[id]
	if ok {
		rb.add(e, now)
	}
	s.mu.Unlock()
	if !ok {
		return nil, false
	}
	return s.finishRecords(&rb)[0], true
}

func (s *Server) handleListLive(w http.ResponseWriter, r *http.Request, _ string) {
	if f, ok := s.listFilter(w, r, false); ok {
		s.listLive(w, r, f)
	}
}

// listLive answers a page of live jobs.
func (s *Server) listLive(w http.ResponseWriter, r *http.Request, f listFilter) {
	rb := recordBuilds{items: []json.RawMessage{}}
	s.mu.Lock()
	matching := 0
	now := s.liveNow()
	for _, e := range s.live.ordered() {
		if !f.matches(e.createdAt, e.statusAt(now), e.customMetadata) {
			continue
		}
		if f.onPage(matching) {
			rb.add(e, now)
		}
		matching++
	}
	s.mu.Unlock()
	writeEncodedPage(w, listPage(f, r, client.KindLive, matching, s.finishRecords(&rb)))
}

// writeEncodedPage answers 200 with p, whose items are records already
// encoded, copied as they are: encoding/json would scan each one again,
// which costs more than encoding the record did.
func writeEncodedPage(w http.ResponseWriter, p client.Page[json.RawMessage]) {
	items := p.Items
	p.Items = []json.RawMessage{}
	envelope := encodeRecord(p)
	// Items is the page's last field: its empty list ends the envelope.
	head, ok := bytes.CutSuffix(envelope, []byte("[]}"))
	if !ok {
		panic("fakeserver: a page's items are not its last field: " + string(envelope))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(head)
	sep := []byte{'['}
	for _, item := range items {
		_, _ = w.Write(sep)
		_, _ = w.Write(item)
		sep[0] = ','
	}
	if len(items) == 0 {
		_, _ = w.Write(sep)
	}
	_, _ = w.Write([]byte("]}"))
}

// listFilter parses a listing's query, or answers 400 naming each problem;
// under zero data retention it answers 403, as every retrieval. withKind
// takes the kind parameter of GET /v2/transcription.
func (s *Server) listFilter(w http.ResponseWriter, r *http.Request, withKind bool) (listFilter, bool) {
	if s.zdrRefuses(w, r, zdrRetrievalMessage) {
		return listFilter{}, false
	}
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		s.writeError(w, r, http.StatusBadRequest, "the query string cannot be parsed: "+err.Error())
		return listFilter{}, false
	}
	f, problems := parseListFilter(query, withKind)
	if len(problems) > 0 {
		s.writeError(w, r, http.StatusBadRequest, "invalid query parameters", problems...)
		return listFilter{}, false
	}
	return f, true
}

// end is the index just past the filter's page among the matching items.
func (f listFilter) end() int {
	end := f.offset + f.limit
	if end < f.offset { // overflow: the page runs to the last item
		end = math.MaxInt
	}
	return end
}

// onPage reports whether the matching item at index i is on the page.
func (f listFilter) onPage(i int) bool { return i >= f.offset && i < f.end() }

// listPage is the page of a listing of jobs of kind (of every kind when
// empty) holding items, out of matching items in all. Its links to the
// first, current and next pages have the spec's form,
// {base_url}/v2/transcription?status=…&offset=…&limit=…, carrying the
// filters as given and the kind, so that following them lists the same
// jobs whichever listing they came from; next is null on the last page.
func listPage[T any](f listFilter, r *http.Request, kind string, matching int, items []T) client.Page[T] {
	query := maps.Clone(f.echo)
	if kind != "" {
		query.Set("kind", kind)
	}
	filters := query.Encode()
	if filters != "" {
		filters += "&"
	}
	link := func(offset int) string {
		return fmt.Sprintf("%s%s?%soffset=%d&limit=%d", baseURL(r), transcriptionsPath, filters, offset, f.limit)
	}
	p := client.Page[T]{First: link(0), Current: link(f.offset), Items: items}
	if f.end() < matching {
		p.Next = pointerTo(link(f.end()))
	}
	return p
}

// handleGetLive answers GET /v2/live/{id}: the live job's record.
func (s *Server) handleGetLive(w http.ResponseWriter, r *http.Request, id string) {
	s.serveRecord(w, r, "no live job with id "+id, func() (any, bool) { return s.lookupLiveBody(id) })
}

// handleGetLiveFile answers GET /v2/live/{id}/file: a silent WAV of the
// session's duration and channels. A job with no file yet (queued) has none.
func (s *Server) handleGetLiveFile(w http.ResponseWriter, r *http.Request, id string) {
	if s.zdrRefuses(w, r, zdrFileMessage) {
		return
	}
	rec, ok := s.lookupLiveJob(id)
	switch {
	case !ok:
		s.writeError(w, r, http.StatusNotFound, "no live job with id "+id)
	case rec.File == nil || rec.File.AudioDuration == nil:
		s.writeError(w, r, http.StatusNotFound, "live job "+id+" has no audio file (status "+rec.Status+")")
	default:
		channels := int64(1)
		if n := rec.File.NumberOfChannels; n != nil && *n >= 1 {
			channels = *n
		}
		s.serveAudio(w, r, filenameOf(rec.File), wavContentType, newSilentWAV(*rec.File.AudioDuration, channels))
	}
}

// filenameOf is the name of a job's file; empty when the record has none.
func filenameOf(f *client.FileInfo) string {
	if f.Filename == nil {
		return ""
	}
	return *f.Filename
}

// handleDeleteLive answers DELETE /v2/live/{id} as DELETE /v2/pre-recorded/{id}
// does: 202 for a final job, 403 while it is queued or processing.
func (s *Server) handleDeleteLive(w http.ResponseWriter, r *http.Request, id string) {
	s.mu.Lock()
	now := s.liveNow()
	e, found := s.live.byID[id]
	status := ""
	if found {
		status = e.statusAt(now)
		if client.IsFinal(status) {
			s.live.remove(id)
		}
	}
	s.mu.Unlock()
	switch {
	case !found:
		s.writeError(w, r, http.StatusNotFound, "no live job with id "+id)
	case !client.IsFinal(status):
		s.writeError(w, r, http.StatusForbidden, "the job is not in a deletable state (status "+status+")")
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

// listFilter is the parsed query of a listing (GET /v2/live, GET
// /v2/pre-recorded, GET /v2/transcription).
type listFilter struct {
	kind          string // GET /v2/transcription's: one kind, or "" for every kind
	offset, limit int
	date          string // YYYY-MM-DD, the UTC day of created_at
	after, before *time.Time
	statuses      []string
	metadata      map[string]string
	echo          url.Values // the filters as given, repeated in page links
}

// wholeNumberParameter reads the query parameter name, a whole number of
// at least minimum; problem says what is wrong with v otherwise. A number
// beyond what the server counts to is too large, not "not an integer".
func wholeNumberParameter(name, v string, minimum int) (n int, problem string) {
	n, err := strconv.Atoi(v)
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(v, "-"):
		return 0, fmt.Sprintf("%s must be at most %d (got %s)", name, math.MaxInt, v)
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Sprintf("%s must not be less than %d", name, minimum)
	case err != nil:
		return 0, fmt.Sprintf("%s must be an integer (got %q)", name, v)
	case n < minimum:
		return 0, fmt.Sprintf("%s must not be less than %d", name, minimum)
	}
	return n, ""
}

// parseListFilter reads a listing's query parameters, naming each one that
// is invalid or unknown (kind, unless withKind).
func parseListFilter(q url.Values, withKind bool) (listFilter, []string) {
	f := listFilter{limit: client.DefaultLiveListLimit, metadata: map[string]string{}, echo: url.Values{}}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	for _, key := range orderedKeys(q) {
		values := q[key]
		metaKey, isMeta := customMetadataKey(key)
		// Unknown however often given: its name is the fault.
		switch {
		case isMeta || listParameters[key] || (key == "kind" && withKind):
		case strings.HasPrefix(key, "custom_metadata["):
			bad("%q: a custom_metadata filter is custom_metadata[key]=value, with a key that is not empty and has no square brackets, which this encoding cannot carry", key)
			continue
		default:
			bad("unknown query parameter %q", key)
			continue
		}
		if key != "status" && len(values) > 1 {
			bad("%s must be given at most once", key)
			continue
		}
		v := values[0]
		switch {
		case key == "offset":
			if n, problem := wholeNumberParameter(key, v, client.MinListOffset); problem != "" {
				bad("%s", problem)
			} else {
				f.offset = n
			}
		case key == "limit":
			if n, problem := wholeNumberParameter(key, v, client.MinListLimit); problem != "" {
				bad("%s", problem)
			} else {
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
			t, err := client.ParseDateTimeFilter(v)
			if err != nil {
				hint := ""
				if offsetReadAsSpace.MatchString(v) {
					// A query reads a bare "+" as a space.
					hint = `: a "+" in a query must be written %2B`
				}
				bad("%s must be an ISO 8601 date-time in RFC 3339's form, such as 2024-05-01T12:00:00Z or 2024-05-01T14:00:00.5+02:00 (got %q)%s", key, v, hint)
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
		case key == "kind" && withKind:
			if v == client.KindPreRecorded || v == client.KindLive {
				f.kind = v // listPage adds it to the links
			} else {
				bad("kind must be one of: %s, %s (got %q)", client.KindPreRecorded, client.KindLive, v)
			}
		}
	}
	return f, problems
}

// listParameters are the query parameters of every listing but
// custom_metadata[key] (and kind, of the mixed one).
var listParameters = map[string]bool{"offset": true, "limit": true, "date": true, "after_date": true, "before_date": true, "status": true}

// offsetReadAsSpace matches a date-time whose offset's "+" a query read as
// a space.
var offsetReadAsSpace = regexp.MustCompile(`T\d{2}:\d{2}:\d{2}(\.\d+)? \d{2}:\d{2}$`)

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

// matches reports whether a job created at createdAt, in status, with that
// custom metadata passes every filter.
func (f listFilter) matches(createdAt time.Time, status string, customMetadata map[string]any) bool {
	if f.date != "" && createdAt.UTC().Format(client.DateFilterLayout) != f.date {
		return false
	}
	if f.after != nil && !createdAt.After(*f.after) {
		return false
	}
	if f.before != nil && !createdAt.Before(*f.before) {
		return false
	}
	if len(f.statuses) > 0 && !client.Contains(f.statuses, status) {
		return false
	}
	for k, want := range f.metadata {
		if !metadataValueIs(customMetadata[k], want) {
			return false
		}
	}
	return true
}

// metadataValueIs reports whether a custom_metadata value is the one a
// filter writes as text: a string as it is, a number as its JSON text
// (which is JavaScript's String(n), as the official client writes it:
// 12345678, not 1.2345678e+07), a boolean as true or false.
func metadataValueIs(got any, want string) bool {
	switch got := got.(type) {
	case string:
		return got == want
	case json.Number: // as sent, as the provider shows it, or as a float64's
		if string(got) == want || client.NumberText(got) == want {
			return true
		}
		f, err := got.Float64()
		return err == nil && metadataValueIs(f, want)
	case float64: // not 2.0, 02, +2 or 0x1p1 for 2
		text, err := json.Marshal(got)
		return err == nil && string(text) == want
	case bool:
		return strconv.FormatBool(got) == want
	}
	return false
}
