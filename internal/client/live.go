package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"time"
)

// ListOptions are the filters of the listings, GET /v2/live and GET
// /v2/pre-recorded. Zero values are not sent.
type ListOptions struct {
	Offset int
	// Limit is the page size; 0 lets the service choose (20).
	Limit      int
	Date       string // YYYY-MM-DD, the UTC day of created_at
	AfterDate  string // an RFC 3339 date-time (ParseDateTimeFilter)
	BeforeDate string // an RFC 3339 date-time (ParseDateTimeFilter)
	Status     []string
	// CustomMetadata keeps items having every pair.
	CustomMetadata map[string]string
}

// ParseDateTimeFilter reads an after_date or before_date as the service
// does: an RFC 3339 date-time, two digits to each field, upper-case T and
// Z, a dot before any fraction of a second, an offset from -23:59 to
// +23:59. Go's time.Parse alone also takes one-digit fields, a comma before
// the fraction and offsets up to ±24:60. The error says what is wrong.
func ParseDateTimeFilter(s string) (time.Time, error) {
	m := dateTimeFilterPattern.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, errors.New("it is not written YYYY-MM-DDThh:mm:ss with an optional .fraction and a Z or ±hh:mm offset (upper-case T and Z)")
	}
	if m[1] > "23" || m[2] > "59" { // both empty for Z
		return time.Time{}, errors.New("its offset is not a time of day: hours from 00 to 23, minutes from 00 to 59")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, errors.New("it is not a real date and time (months 01 to 12, the days of the month, hours 00 to 23, minutes and seconds 00 to 59)")
	}
	return t, nil
}

// dateTimeFilterPattern is RFC 3339's date-time; it captures a numeric
// offset's hours and minutes.
var dateTimeFilterPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$`)

// ListLiveOptions are the filters of GET /v2/live.
type ListLiveOptions = ListOptions

// Query encodes the options as the service reads them (DESIGN.md):
// status repeated, custom_metadata[key]=value.
func (o ListOptions) Query() url.Values {
	q := url.Values{}
	if o.Offset > 0 {
		q.Set("offset", strconv.Itoa(o.Offset))
	}
	if o.Limit > 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	if o.Date != "" {
		q.Set("date", o.Date)
	}
	if o.AfterDate != "" {
		q.Set("after_date", o.AfterDate)
	}
	if o.BeforeDate != "" {
		q.Set("before_date", o.BeforeDate)
	}
	for _, s := range o.Status {
		q.Add("status", s)
	}
	keys := make([]string, 0, len(o.CustomMetadata))
	for k := range o.CustomMetadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		q.Set("custom_metadata["+k+"]", o.CustomMetadata[k])
	}
	return q
}

// ListLive fetches one page of live jobs. A Detail, when given, leaves part
// of the items' results out.
func (c *Client) ListLive(ctx context.Context, opts ListOptions, detail ...Detail) (*LivePage, error) {
	return listPage(ctx, c, "/v2/live", liveCommon, opts, firstDetail(detail))
}

// ListAllLive follows the pages of live jobs from opts.Offset until maxItems
// items are collected (maxItems ≤ 0: every matching item) or there is no
// next page. Each page asks for at most pageSize new items and never more
// than are still wanted (beside the last item received, which it starts at:
// see eachPage).
//
// The next page is requested with this client's own filters and the offset
// taken from the service's `next` link (never past the items received, and
// from the last item received: see eachPage), so filters survive whatever
// form the link has. A Detail, when given, leaves
// part of the items' results out.
func (c *Client) ListAllLive(ctx context.Context, opts ListOptions, maxItems, pageSize int, detail ...Detail) ([]LiveJob, int, error) {
	return listAll(ctx, c, "/v2/live", liveCommon, opts, maxItems, pageSize, firstDetail(detail))
}

// ServiceAnswers reports whether the base URL leads to the service: nil
// when its listing of jobs answers there (one queued job at most, without
// its result). It tells a 404 of the service (a job gone) from one of
// something else at the base URL (a path prefix mistyped, another host).
// A refusal in the service's own words (a 403 whose body has the service's
// request_id: zero data retention refuses listings) is an answer too. An
// answer is remembered for the client's life, so that many jobs found gone
// cost one request; a failure is asked again next time. Callers at the same
// time share one listing and its outcome (a refresh reads its jobs in
// parallel): a listing that fails, or never answers, fails them all at once.
func (c *Client) ServiceAnswers(ctx context.Context) error {
	for {
		if c.serviceAnswered.Load() {
			return nil
		}
		c.askingMu.Lock()
		ask := c.asking
		if ask == nil {
			return c.askServiceFor(ctx)
		}
		c.askingMu.Unlock()
		select {
		case <-ask.done:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
		// The asker's own interruption is not this caller's answer (a
		// listing that timed out is: net/http's timeouts are deadlines too).
		if !ask.askerStopped {
			return ask.err
		}
	}
}

// serviceAsk is a ServiceAnswers listing: done closes once err and
// askerStopped are set.
type serviceAsk struct {
	done chan struct{}
	err  error
	// askerStopped: the listing failed because its asker's own context
	// ended, which says nothing to the callers waiting on it.
	askerStopped bool
}

// askServiceFor sends ServiceAnswers' listing for the callers waiting on
// c.asking, which the caller has just locked and found nil.
func (c *Client) askServiceFor(ctx context.Context) error {
	// Until the listing says otherwise (a panic leaves it so).
	ask := &serviceAsk{done: make(chan struct{}), err: errors.New("the listing of jobs was not read")}
	c.asking = ask
	c.askingMu.Unlock()
	defer func() {
		c.askingMu.Lock()
		c.asking = nil
		c.askingMu.Unlock()
		close(ask.done)
	}()
	ask.err = c.askService(ctx)
	ask.askerStopped = ask.err != nil && ctx.Err() != nil
	return ask.err
}

// askService sends ServiceAnswers' listing and remembers an answer.
func (c *Client) askService(ctx context.Context) error {
	_, err := c.ListPreRecorded(ctx, ListOptions{Limit: 1, Status: []string{StatusQueued}}, WithoutUtterances)
	if err != nil && !refusedByTheService(err) {
		return err
	}
	c.serviceAnswered.Store(true)
	return nil
}

// refusedByTheService reports whether err is a 403 in the service's own
// words (its error body, with a request_id).
func refusedByTheService(err error) bool {
	var refused *APIError
	return errors.As(err, &refused) && refused.StatusCode == http.StatusForbidden && refused.RequestID != ""
}

// ListPreRecorded fetches one page of pre-recorded jobs (GET
// /v2/pre-recorded), newest first. A Detail, when given, leaves part of the
// items' results out.
func (c *Client) ListPreRecorded(ctx context.Context, opts ListOptions, detail ...Detail) (*PreRecordedPage, error) {
	return listPage(ctx, c, "/v2/pre-recorded", preRecordedCommon, opts, firstDetail(detail))
}

// ListAllPreRecorded follows the pages of pre-recorded jobs as ListAllLive
// follows those of live jobs.
func (c *Client) ListAllPreRecorded(ctx context.Context, opts ListOptions, maxItems, pageSize int, detail ...Detail) ([]PreRecordedJob, int, error) {
	return listAll(ctx, c, "/v2/pre-recorded", preRecordedCommon, opts, maxItems, pageSize, firstDetail(detail))
}

// EachPreRecordedRecordPage follows the pages of pre-recorded jobs as
// EachLivePage follows those of live jobs, handing each page's items to use
// as they come (the transcription_job list resource hands them on to
// Terraform while the next page is on its way), with each job's
// request_params left as the service sent them (see PreRecordedRecord: one
// job's cannot fail the page). It returns the number of pages read.
func (c *Client) EachPreRecordedRecordPage(ctx context.Context, opts ListOptions, maxItems, pageSize int, detail Detail, use func([]PreRecordedRecord) error) (int, error) {
	return eachPage(ctx, c, "/v2/pre-recorded", preRecordedRecordCommon, opts, maxItems, pageSize, detail, use)
}

// GetLive fetches a live job record (GET /v2/live/{id}). A Detail, when
// given, leaves part of the result's transcripts out.
func (c *Client) GetLive(ctx context.Context, id string, detail ...Detail) (*LiveJob, error) {
	return c.getLive(ctx, call{detail: firstDetail(detail)}, id)
}

// LookLive is GetLive tried once, its summary only (WithoutUtterances): a
// look whose failure changes nothing, such as whether an id a caller took
// for a pre-recorded job's is a live session's.
func (c *Client) LookLive(ctx context.Context, id string) (*LiveJob, error) {
	return c.getLive(ctx, call{detail: WithoutUtterances, once: true}, id)
}

// getLive reads live job id with cl's detail and tries.
func (c *Client) getLive(ctx context.Context, cl call, id string) (*LiveJob, error) {
	var out LiveJob
	cl.method, cl.path, cl.retry = http.MethodGet, "/v2/live/"+url.PathEscape(id), retryIdempotent
	if err := c.do(ctx, cl, &out); err != nil {
		return nil, err
	}
	if err := checkJobRecord("GET "+cl.path, id, out.ID, out.Status); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteLive deletes a finished live job (DELETE /v2/live/{id}): 403 while it
// is queued or processing, 404 when unknown.
func (c *Client) DeleteLive(ctx context.Context, id string) error {
	return c.do(ctx, call{method: http.MethodDelete, path: "/v2/live/" + url.PathEscape(id), retry: retryIdempotent}, nil)
}

func liveCommon(j *LiveJob) *JobCommon                        { return &j.JobCommon }
func preRecordedCommon(j *PreRecordedJob) *JobCommon          { return &j.JobCommon }
func preRecordedRecordCommon(j *PreRecordedRecord) *JobCommon { return &j.JobCommon }

// listPage fetches one page of a listing and checks that every item has an
// id and a status.
func listPage[T any](ctx context.Context, c *Client, path string, common func(*T) *JobCommon, opts ListOptions, detail Detail) (*Page[T], error) {
	var page Page[T]
	if err := c.do(ctx, call{method: http.MethodGet, path: path, query: opts.Query(), retry: retryIdempotent, detail: detail}, &page); err != nil {
		return nil, err
	}
	if page.Items == nil {
		return nil, &DecodeError{Op: "GET " + path, Reason: "response has no items"}
	}
	for i := range page.Items {
		if j := common(&page.Items[i]); j.ID == "" || j.Status == "" {
			return nil, &DecodeError{Op: "GET " + path, Reason: fmt.Sprintf("item %d lacks id or status", i)}
		}
	}
	return &page, nil
}

// listAll follows a listing's pages (see ListAllLive), keeping every item.
func listAll[T any](ctx context.Context, c *Client, path string, common func(*T) *JobCommon, opts ListOptions, maxItems, pageSize int, detail Detail) ([]T, int, error) {
	var items []T
	pages, err := eachPage(ctx, c, path, common, opts, maxItems, pageSize, detail, func(page []T) error {
		items = append(items, page...)
		return nil
	})
	if err != nil {
		return nil, pages, err
	}
	return items, pages, nil
}

// EachLivePage follows the pages of live jobs as ListAllLive does, handing
// each page's items to use as they come instead of keeping them all: a
// listing of thousands of sessions then holds one page of records at a
// time. It returns the number of pages read.
func (c *Client) EachLivePage(ctx context.Context, opts ListOptions, maxItems, pageSize int, detail Detail, use func([]LiveJob) error) (int, error) {
	return eachPage(ctx, c, "/v2/live", liveCommon, opts, maxItems, pageSize, detail, use)
}

// eachPage follows a listing's pages from opts.Offset until maxItems items
// are handed to use (maxItems ≤ 0: every matching item) or there is no next
// page; an error of use stops it. The next page is asked for before use gets
// the current one, so that the service's answer overlaps the caller's work;
// one request is in flight at a time, as without it.
//
// The listing is newest first and paged by offset, so it moves under a
// caller that follows it: a job created meanwhile shifts the later items
// forward (an item comes again), and a job that leaves it (deleted, or
// ended while the listing is filtered on running statuses) shifts them
// back, past the items received. So each page after the first starts at
// the last item received, which tells where the listing went on: the items
// after it are handed, and a page holding no item already handed (jobs
// left before it) is asked for again from further back. An item is handed
// once, in the listing's order.
func eachPage[T any](ctx context.Context, c *Client, path string, common func(*T) *JobCommon, opts ListOptions, maxItems, pageSize int, detail Detail, use func([]T) error) (int, error) {
	if pageSize <= 0 {
		pageSize = DefaultLiveListLimit
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops a page asked for in advance that use's error leaves unread
	start := opts.Offset
	seen, pages := 0, 0
	ids := map[string]bool{} // of the items handed to use
	// extra: how many items the page asked for holds beyond those still
	// wanted (the item already handed it starts with; a whole page while
	// the last item received is looked for), within the page's pageSize
	// items: the service's largest page is not known, so no page asks for
	// more than the caller's page size.
	fetch := func(extra int) <-chan pageResult[T] {
		opts.Limit = pageSize
		if maxItems > 0 {
			opts.Limit = min(pageSize, maxItems-seen+extra)
		}
		result := make(chan pageResult[T], 1)
		go func(opts ListOptions) {
			page, err := listPage(ctx, c, path, common, opts, detail)
			result <- pageResult[T]{page, err}
		}(opts)
		return result
	}
	overlapping := false // the page asked for starts at the last item received
	// followed: the page was asked for by a next link (not again, from
	// further back). stale: how many pages in a row so followed brought no
	// item not handed before. A service that ignores offset, or holds it
	// at its last page, answers pages of jobs already listed with next
	// links that would be followed for ever. A listing that moves brings
	// such pages too: after a step back, as many as it takes to walk past
	// the items handed, and a few more where jobs created meanwhile shift
	// it past the step. More than that, the service is not paging.
	followed := false
	stale := 0
	const moreStalePages = 100
	pending := fetch(0)
	for {
		r := <-pending
		if r.err != nil {
			return pages, r.err
		}
		pages++
		page := r.page
		items, found := after(page.Items, common, ids)
		if followed && found && len(items) == 0 {
			if stale++; stale > moreStalePages+seen/max(1, pageSize-1) {
				return pages, &DecodeError{Op: "GET " + path, Reason: fmt.Sprintf("%d pages in a row, up to offset %d, hold only jobs already listed: the service seems not to page by offset as its next links say", stale, opts.Offset)}
			}
		} else if len(items) > 0 {
			stale = 0
		}
		// A page asked for at the last item received that does not hold
		// it, or any item handed, or is empty: jobs left the listing
		// before it.
		if overlapping && !found {
			switch {
			case opts.Offset > 0:
				// Ask again from further back, where the items already
				// handed are, below the offset asked for too (jobs before it
				// may have left), for a whole page: the item looked for may
				// be anywhere in it.
				opts.Offset = max(0, opts.Offset-pageSize/2)
				pending, followed = fetch(pageSize), false
				continue
			case start > 0:
				// Every item handed left: where the listing went on cannot
				// be told from jobs before the offset asked for, which were
				// never read. It goes on from that offset.
				opts.Offset, overlapping = start, false
				pending, followed = fetch(0), false
				continue
			}
		}
		if maxItems > 0 && seen+len(items) > maxItems {
			items = items[:maxItems-seen]
		}
		for i := range items {
			ids[common(&items[i]).ID] = true
		}
		seen += len(items)

		more, nextErr := false, error(nil)
		if (maxItems <= 0 || seen < maxItems) && page.Next != nil && *page.Next != "" && len(page.Items) > 0 {
			received := opts.Offset + len(page.Items)
			next, err := nextOffset(*page.Next, received)
			// A link past the items received (a service sending fewer than
			// asked for, its next link advanced by the limit asked for) would
			// skip those in between: the listing goes on after the last one
			// received.
			next = min(next, received)
			switch {
			case err != nil:
				nextErr = &DecodeError{Op: "GET " + path, Reason: err.Error()}
			case next <= opts.Offset:
				nextErr = &DecodeError{Op: "GET " + path, Reason: fmt.Sprintf("next page offset %d does not advance past %d", next, opts.Offset)}
			default:
				// Start at the last item received, unless that would not
				// advance (a page of one item).
				overlapping = next-1 > opts.Offset
				handed := 0
				opts.Offset = next
				if overlapping {
					opts.Offset, handed = next-1, 1
				}
				extra := handed
				if len(items) == 0 {
					// Nothing new here: jobs created meanwhile shifted the
					// listing past the step. The next page is asked for
					// whole, so that the listing catches up instead of
					// asking for the few items still wanted again and again.
					extra = pageSize
				}
				pending, more, followed = fetch(extra), true, true
			}
		}
		if err := use(items); err != nil {
			return pages, err
		}
		if nextErr != nil || !more {
			return pages, nextErr
		}
	}
}

// after returns the items of a page that follow the last one already
// handed (all of them when none was): none of those was handed. found
// reports whether the page held an item already handed.
func after[T any](items []T, common func(*T) *JobCommon, ids map[string]bool) (kept []T, found bool) {
	for i := len(items) - 1; i >= 0; i-- {
		if ids[common(&items[i]).ID] {
			return items[i+1:], true
		}
	}
	return items, false
}

// pageResult is a page asked for, or why it could not be had.
type pageResult[T any] struct {
	page *Page[T]
	err  error
}

// nextOffset reads the offset of a next-page link, or falls back when the
// link carries none.
func nextOffset(link string, fallback int) (int, error) {
	u, err := url.Parse(link)
	if err != nil {
		return 0, fmt.Errorf("next page link %q is not a URL", link)
	}
	v := u.Query().Get("offset")
	if v == "" {
		return fallback, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("next page link %q has an invalid offset", link)
	}
	return n, nil
}
