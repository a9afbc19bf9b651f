package client

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
)

// ListLiveOptions are the filters of GET /v2/live. Zero values are not sent.
type ListLiveOptions struct {
	Offset int
	// Limit is the page size; 0 lets the service choose (20).
	Limit      int
	Date       string // YYYY-MM-DD, the UTC day of created_at
	AfterDate  string // ISO 8601 date-time
	BeforeDate string // ISO 8601 date-time
	Status     []string
	// CustomMetadata keeps items having every pair.
	CustomMetadata map[string]string
}

// Query encodes the options as design.md states: status repeated,
// custom_metadata[key]=value.
func (o ListLiveOptions) Query() url.Values {
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
func (c *Client) ListLive(ctx context.Context, opts ListLiveOptions, detail ...Detail) (*LivePage, error) {
	var page LivePage
	if err := c.do(ctx, call{method: http.MethodGet, path: "/v2/live", query: opts.Query(), retry: retryIdempotent, detail: firstDetail(detail)}, &page); err != nil {
		return nil, err
	}
	if page.Items == nil {
		return nil, &DecodeError{Op: "GET /v2/live", Reason: "response has no items"}
	}
	for i, item := range page.Items {
		if item.ID == "" || item.Status == "" {
			return nil, &DecodeError{Op: "GET /v2/live", Reason: fmt.Sprintf("item %d lacks id or status", i)}
		}
	}
	return &page, nil
}

// ListAllLive follows the pages from opts.Offset until maxItems items are
// collected (maxItems ≤ 0: every matching item) or there is no next page. Each
// page asks for at most pageSize items and never more than are still wanted.
//
// The next page is requested with this client's own filters and the offset
// taken from the service's `next` link, so filters survive whatever form the
// link has. A Detail, when given, leaves part of the items' results out.
func (c *Client) ListAllLive(ctx context.Context, opts ListLiveOptions, maxItems, pageSize int, detail ...Detail) ([]LiveJob, int, error) {
	if pageSize <= 0 {
		pageSize = DefaultLiveListLimit
	}
	var items []LiveJob
	pages := 0
	for {
		want := pageSize
		if maxItems > 0 && maxItems-len(items) < want {
			want = maxItems - len(items)
		}
		opts.Limit = want
		page, err := c.ListLive(ctx, opts, detail...)
		if err != nil {
			return nil, pages, err
		}
		pages++
		items = append(items, page.Items...)
		if maxItems > 0 && len(items) >= maxItems {
			return items[:maxItems], pages, nil
		}
		if page.Next == nil || *page.Next == "" || len(page.Items) == 0 {
			return items, pages, nil
		}
		next, err := nextOffset(*page.Next, opts.Offset+len(page.Items))
		if err != nil {
			return nil, pages, &DecodeError{Op: "GET /v2/live", Reason: err.Error()}
		}
		if next <= opts.Offset {
			return nil, pages, &DecodeError{Op: "GET /v2/live", Reason: fmt.Sprintf("next page offset %d does not advance past %d", next, opts.Offset)}
		}
		opts.Offset = next
	}
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
