package client_test

import (
	"context"
	"errors"
	"testing"

	"github.com/transcription-service/terraform-provider-transcription/internal/client"
	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

// EachLivePage hands the pages one at a time, in the listing's order, stops
// at maxItems, and stops on the first error of its callback.
func TestEachLivePage(t *testing.T) {
	_, c, _ := newFake(t, fakeserver.Options{LiveJobs: 45})
	ctx := context.Background()
	all, _, err := c.ListAllLive(ctx, client.ListOptions{}, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		maxItems  int
		wantSizes []int
	}{
		{0, []int{10, 10, 10, 10, 5}},
		{23, []int{10, 10, 3}},
		{10, []int{10}},
	} {
		var sizes []int
		var ids []string
		pages, err := c.EachLivePage(ctx, client.ListOptions{}, tc.maxItems, 10, client.WithoutUtterances, func(items []client.LiveJob) error {
			sizes = append(sizes, len(items))
			for _, j := range items {
				ids = append(ids, j.ID)
			}
			return nil
		})
		if err != nil || pages != len(tc.wantSizes) {
			t.Fatalf("maxItems %d: %d pages, %v", tc.maxItems, pages, err)
		}
		if len(sizes) != len(tc.wantSizes) {
			t.Fatalf("maxItems %d: pages of %v, want %v", tc.maxItems, sizes, tc.wantSizes)
		}
		for i := range sizes {
			if sizes[i] != tc.wantSizes[i] {
				t.Fatalf("maxItems %d: pages of %v, want %v", tc.maxItems, sizes, tc.wantSizes)
			}
		}
		for i, id := range ids {
			if id != all[i].ID {
				t.Fatalf("maxItems %d: item %d is %s, want %s (the listing's order)", tc.maxItems, i, id, all[i].ID)
			}
		}
	}
	stop := errors.New("enough")
	calls := 0
	if _, err := c.EachLivePage(ctx, client.ListOptions{}, 0, 10, client.FullDetail, func([]client.LiveJob) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("the callback's error did not stop the listing: %v after %d pages", err, calls)
	}
}
