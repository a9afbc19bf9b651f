package fakeserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
)

// job is a stored pre-recorded job. Its status is a function of the clock
// until it is final; advance makes it final once its processing time has
// elapsed.
type job struct {
	id             string
	requestID      string
	createdAt      time.Time
	startedAt      time.Time                        // createdAt, or later when queued for a processing slot
	processing     time.Duration                    // from startedAt to final
	params         *client.InitTranscriptionRequest // as applied, defaults filled in
	customMetadata map[string]any
	audio          Audio
	source         string // audio_url in its normal form: the same for URLs naming the same file
	fileID         string
	uploaded       bool            // the audio is an upload of this server
	failure        *jobFailure     // nil when the job succeeds
	callback       *callbackTarget // nil when no callback is asked for

	final  bool
	result *client.Result // set when final and done
}

// jobFailure is how a job asked to fail ends.
type jobFailure struct {
	code    int64
	message string
}

func (j *job) status(now time.Time) string {
	switch {
	case j.final && j.failure != nil:
		return client.StatusError
	case j.final:
		return client.StatusDone
	case now.Sub(j.startedAt) < j.processing/4:
		return client.StatusQueued
	default:
		return client.StatusProcessing
	}
}

// record is the job as GET returns it at now. The file is known from the
// start; a failed job has none, as if its audio could not be read.
func (j *job) record(now time.Time) client.PreRecordedJob {
	rec := client.PreRecordedJob{
		JobCommon: client.JobCommon{
			ID:                  j.id,
			RequestID:           j.requestID,
			Version:             client.InterfaceVersion,
			Status:              j.status(now),
			CreatedAt:           formatTimestamp(j.createdAt),
			Kind:                client.KindPreRecorded,
			CustomMetadata:      j.customMetadata,
			PostSessionMetadata: json.RawMessage(`{}`),
		},
		RequestParams: j.params,
	}
	if j.final {
		rec.CompletedAt = pointerTo(formatTimestamp(j.completedAt()))
	}
	if j.failure != nil {
		if j.final {
			rec.ErrorCode = pointerTo(j.failure.code)
		}
		return rec
	}
	rec.File = &client.FileInfo{
		ID:               j.fileID,
		Filename:         pointerTo(j.audio.Filename),
		Source:           pointerTo(j.params.AudioURL),
		AudioDuration:    pointerTo(j.audio.Duration),
		NumberOfChannels: pointerTo(j.audio.Channels),
	}
	rec.Result = j.result
	return rec
}

// completedAt is when the job is (or was) final.
func (j *job) completedAt() time.Time { return j.startedAt.Add(j.processing) }

// advance makes the job final when its processing time has elapsed at now:
// it builds the result, queues the callback and schedules the job's expiry
// when a retention is set. Callers hold s.mu.
func (s *Server) advance(j *job, now time.Time) {
	if j.final || now.Before(j.completedAt()) {
		return
	}
	j.final = true
	delete(s.unsettled, j.id)
	if j.failure == nil {
		j.result = generateResult(j.params, j.audio, j.source)
		// The transcription took the job's processing: the time from
		// leaving the queue (a quarter of its processing time in) to
		// completed_at, which its record shows.
		j.result.Metadata.TranscriptionTime = roundTo3((j.processing - j.processing/4).Seconds())
	}
	if s.opts.Retention > 0 {
		s.expiries.add(j.completedAt().Add(s.opts.Retention), expiringJob, j.id)
	}
	if j.callback != nil { // always, under zero data retention
		s.pending = append(s.pending, newDelivery(j))
	}
}

// processingTimeFor is how long a job on source (its audio_url in normal
// form) takes: Options.ProcessingTime, or with a range a time in
// [ProcessingTime, ProcessingTimeMax] chosen by a hash of source, so the same
// file always takes the same time whatever order the jobs arrive in.
func (s *Server) processingTimeFor(source string) time.Duration {
	lo, hi := s.opts.ProcessingTime, s.opts.ProcessingTimeMax
	if hi <= lo {
		return lo
	}
	h := fnv.New64a()
	h.Write([]byte(source))
	span := uint64(hi-lo) + 1
	return lo + time.Duration(h.Sum64()%span)
}

// processingSlot is when a job created at now, taking processing, starts:
// at once, or with Options.MaxProcessingJobs when the first of the slots
// frees, the jobs before it keeping theirs (first in, first out). The slot
// is then the job's until it is final, even if the control interface
// forgets the job earlier. Callers hold s.mu.
func (s *Server) processingSlot(now time.Time, processing time.Duration) time.Time {
	limit := s.opts.MaxProcessingJobs
	if limit <= 0 {
		return now
	}
	if len(s.slotsFreeAt) < limit {
		s.slotsFreeAt = append(s.slotsFreeAt, now.Add(processing))
		return now
	}
	first := 0
	for i, free := range s.slotsFreeAt {
		if free.Before(s.slotsFreeAt[first]) {
			first = i
		}
	}
	start := now
	if s.slotsFreeAt[first].After(now) {
		start = s.slotsFreeAt[first]
	}
	s.slotsFreeAt[first] = start.Add(processing)
	return start
}

// forget drops every trace of a job. Callers hold s.mu.
func (s *Server) forget(id string) {
	delete(s.jobs, id)
	delete(s.unsettled, id)
}

// newJob is the job a create of req makes, before it is given its times
// and audio (resolveJobAudio).
func (s *Server) newJob(id, requestID string, req *client.InitTranscriptionRequest) *job {
	// URLs that name the same file (RFC 9110 §4.2.3) are the same audio,
	// transcribed alike, whichever way the request wrote it.
	source := client.EquivalentHTTPURL(req.AudioURL)
	return &job{
		id:             id,
		requestID:      requestID,
		customMetadata: req.CustomMetadata,
		params:         req.WithDefaults(),
		source:         source,
		callback:       callbackFor(req),
		failure:        failureFor(req.AudioURL),
		processing:     s.processingTimeFor(source),
	}
}

// resolveJobAudio gives j the audio its source names (see resolveAudio),
// reached at host; a missing upload fails the job. Callers hold s.mu.
func (s *Server) resolveJobAudio(j *job, host string) {
	audio, fileID, uploaded, missing := s.resolveAudio(j.source, host)
	j.audio, j.fileID, j.uploaded = audio, fileID, uploaded
	if j.failure == nil {
		j.failure = missing
	}
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request, _ string) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		s.writeError(w, r, http.StatusBadRequest, "Content-Type must be application/json")
		return
	}
	watched := &bodyWatch{ReadCloser: r.Body}
	body, err := io.ReadAll(io.LimitReader(watched, maxCreateBodyBytes+1))
	if err != nil && clientGone(r, watched) {
		answerClientGone(w)
		return
	}
	if err != nil {
		s.writeError(w, r, http.StatusBadRequest, "reading the request body: "+err.Error())
		return
	}
	if len(body) > maxCreateBodyBytes {
		s.writeError(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body exceeds %d MiB, a bound of this emulator (the service's is not stated)", maxCreateBodyBytes>>20))
		return
	}
	req, bad := decodeCreateRequest(body)
	if bad != nil {
		s.writeError(w, r, http.StatusBadRequest, bad.message, bad.problems...)
		return
	}
	problems := validateRequest(req)
	if s.opts.ZeroDataRetention && callbackFor(req) == nil {
		// The spec: results are delivered only through callbacks, so a
		// callback URL must be configured in each request.
		problems = append(problems, "a callback is required under zero data retention (callback_config.url with callback true, or callback_url): results are delivered only by callback")
	}
	if s.opts.ZeroDataRetention && onOwnHost(req.AudioURL, requestHost(r)) {
		// The spec: uploads are disabled, and audio_url must then be an
		// external URL.
		problems = append(problems, "audio_url must be an external URL under zero data retention: uploads are disabled and no uploaded file is kept, and this URL is on the service's own host")
	}
	if len(problems) > 0 {
		s.writeError(w, r, http.StatusUnprocessableEntity, "the given parameters are incorrect", problems...)
		return
	}

	j := s.newJob(uuid.NewString(), uuid.NewString(), req)

	s.mu.Lock()
	now := s.tick()
	if retryAfter, full := s.atConcurrencyLimit(now); full {
		s.stats.ConcurrencyLimited++
		s.mu.Unlock()
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
		s.writeError(w, r, http.StatusTooManyRequests, fmt.Sprintf(
			"too many jobs queued or processing: the account's limit is %d at once; retry after %ds", s.opts.MaxConcurrentJobs, retryAfter))
		return
	}
	j.createdAt = asShown(now)
	j.startedAt = s.processingSlot(now, j.processing)
	s.resolveJobAudio(j, requestHost(r))
	s.jobs[j.id] = j
	s.unsettled[j.id] = j
	s.keepCreateBody(body)
	s.stats.JobsCreated++
	s.mu.Unlock()

	writeJSON(w, http.StatusCreated, client.InitResponse{
		ID:        j.id,
		ResultURL: baseURL(r) + "/v2/transcription/" + j.id,
	})
}

func (s *Server) handleGetPreRecorded(w http.ResponseWriter, r *http.Request, id string) {
	s.serveRecord(w, r, "no pre-recorded job with id "+id, func() (any, bool) { return s.lookupJob(id) })
}

// handleGetTranscription serves the legacy path result_url points to, which
// answers for jobs of any kind.
func (s *Server) handleGetTranscription(w http.ResponseWriter, r *http.Request, id string) {
	s.serveRecord(w, r, "no transcription with id "+id,
		func() (any, bool) { return s.lookupJob(id) },
		func() (any, bool) { return s.lookupLiveBody(id) })
}

// serveRecord answers with the record of the first lookup that finds one,
// 404 with notFound when none does; under zero data retention there is no
// record to serve.
func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request, notFound string, lookups ...func() (any, bool)) {
	if s.zdrRefuses(w, r, zdrRetrievalMessage) {
		return
	}
	for _, lookup := range lookups {
		if rec, ok := lookup(); ok {
			writeJSON(w, http.StatusOK, rec)
			return
		}
	}
	s.writeError(w, r, http.StatusNotFound, notFound)
}

// zdrRefuses answers 403 with message when the account has zero data
// retention, and reports whether it did.
func (s *Server) zdrRefuses(w http.ResponseWriter, r *http.Request, message string) bool {
	if !s.opts.ZeroDataRetention {
		return false
	}
	s.writeError(w, r, http.StatusForbidden, message)
	return true
}

const zdrRetrievalMessage = "zero data retention is enabled for this account: results are not stored and are delivered only by callback"

func (s *Server) lookupJob(id string) (client.PreRecordedJob, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, now, ok := s.jobAt(id)
	if !ok {
		return client.PreRecordedJob{}, false
	}
	return j.record(now), true
}

func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request, id string) {
	found, status := s.deleteJob(id)
	switch {
	case !found:
		s.writeError(w, r, http.StatusNotFound, "no pre-recorded job with id "+id)
	case !client.IsFinal(status) && s.opts.ZeroDataRetention:
		// Not its status: under zero data retention no answer discloses it.
		s.writeError(w, r, http.StatusForbidden, "the job is not in a deletable state")
	case !client.IsFinal(status):
		s.writeError(w, r, http.StatusForbidden, "the job is not in a deletable state (status "+status+")")
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

// deleteJob deletes a final job. It reports whether the job exists and its
// status; a job still queued or processing is left alone.
func (s *Server) deleteJob(id string) (found bool, status string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, now, ok := s.jobAt(id)
	if !ok {
		return false, ""
	}
	status = j.status(now)
	if j.final {
		s.forget(id)
	}
	return true, status
}

// handleListPreRecorded answers GET /v2/pre-recorded: a page of job records,
// newest first, with the filters and page shape of GET /v2/live.
func (s *Server) handleListPreRecorded(w http.ResponseWriter, r *http.Request, _ string) {
	if f, ok := s.listFilter(w, r, false); ok {
		s.listPreRecorded(w, r, f)
	}
}

// listPreRecorded answers a page of pre-recorded jobs.
func (s *Server) listPreRecorded(w http.ResponseWriter, r *http.Request, f listFilter) {
	items := []client.PreRecordedJob{}
	s.mu.Lock()
	now := s.settleAll()
	matching := 0
	for _, j := range s.preRecordedOrdered() {
		if !f.matches(j.createdAt, j.status(now), j.customMetadata) {
			continue
		}
		if f.onPage(matching) {
			items = append(items, j.record(now))
		}
		matching++
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, listPage(f, r, client.KindPreRecorded, matching, items))
}

// preRecordedOrdered is the pre-recorded jobs in listing order: newest
// first, then by id, as the live jobs (liveStore.ordered). The caller holds
// s.mu.
func (s *Server) preRecordedOrdered() []*job {
	jobs := make([]*job, 0, len(s.jobs))
	for _, j := range s.jobs {
		jobs = append(jobs, j)
	}
	slices.SortFunc(jobs, func(a, b *job) int { return listingOrder(a.createdAt, a.id, b.createdAt, b.id) })
	return jobs
}

// keepCreateBody keeps an accepted create's body for CreateBodies: the
// newest Options.RequestLogLimit, and the newest within the budget for
// bodies (the newest always).
func (s *Server) keepCreateBody(body []byte) {
	before := len(s.createBodies)
	if s.createBodies = appendBounded(s.createBodies, body, s.opts.RequestLogLimit); len(s.createBodies) <= before {
		s.createBodyBytes = 0 // appendBounded dropped the oldest: count again
		for _, b := range s.createBodies[:len(s.createBodies)-1] {
			s.createBodyBytes += len(b)
		}
	}
	s.createBodyBytes += len(body)
	for s.createBodyBytes > s.bodyBudget && len(s.createBodies) > 1 {
		s.createBodyBytes -= len(s.createBodies[0])
		s.createBodies[0] = nil // released, not only hidden by the slice
		s.createBodies = s.createBodies[1:]
	}
}

// handleGetPreRecordedFile answers GET /v2/pre-recorded/{id}/file: the bytes
// of the uploaded file the job transcribed, or for external audio a silent
// WAV of the simulated duration and channels.
func (s *Server) handleGetPreRecordedFile(w http.ResponseWriter, r *http.Request, id string) {
	if s.zdrRefuses(w, r, zdrFileMessage) {
		return
	}
	s.mu.Lock()
	j, _, ok := s.jobAt(id)
	var up *upload
	if ok {
		up = s.uploads[j.fileID]
	}
	s.mu.Unlock()
	switch {
	case !ok:
		s.writeError(w, r, http.StatusNotFound, "no pre-recorded job with id "+id)
	case j.failure != nil:
		s.writeError(w, r, http.StatusNotFound, "pre-recorded job "+id+" has no audio file: its audio could not be read")
	case j.uploaded && up == nil:
		s.writeError(w, r, http.StatusNotFound, "pre-recorded job "+id+" has no audio file: the uploaded file is no longer retained")
	case up != nil:
		s.serveAudio(w, r, up.audio.Filename, up.contentType, bytes.NewReader(up.data))
	default:
		s.serveAudio(w, r, j.audio.Filename, wavContentType, newSilentWAV(j.audio.Duration, j.audio.Channels))
	}
}

const zdrFileMessage = "zero data retention is enabled for this account: audio files are not stored"

// wavContentType is the Content-Type a WAV file is served with.
const wavContentType = "audio/wav"

// serveAudio answers with an audio file's bytes, ranges and HEAD included.
// A range the file cannot satisfy gets the service's error body, as every
// other error does, where http.ServeContent writes its own text.
func (s *Server) serveAudio(w http.ResponseWriter, r *http.Request, filename, contentType string, content io.ReadSeeker) {
	w.Header().Set("Content-Type", contentType)
	if filename != "" {
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
	}
	http.ServeContent(&rangeErrorWriter{ResponseWriter: w, answer: func() {
		w.Header().Del("Content-Disposition")
		w.Header().Del("X-Content-Type-Options")
		s.writeError(w, r, http.StatusRequestedRangeNotSatisfiable, "requested range not satisfiable: "+r.Header.Get("Range"))
	}}, r, "", time.Time{}, content)
}

// rangeErrorWriter answers http.ServeContent's 416 with answer instead of
// its text, which it drops.
type rangeErrorWriter struct {
	http.ResponseWriter
	answer   func()
	answered bool
}

func (w *rangeErrorWriter) WriteHeader(status int) {
	if status == http.StatusRequestedRangeNotSatisfiable {
		w.answered = true
		w.answer()
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *rangeErrorWriter) Write(b []byte) (int, error) {
	if w.answered {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}
