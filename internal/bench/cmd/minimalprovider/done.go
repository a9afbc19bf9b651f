package main

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Bounds of minimal_job_done's wait.
const (
	donePollInterval = 100 * time.Millisecond
	doneTimeout      = 30 * time.Minute
)

// jobDoneDataSource is minimal_job_done: a read that waits for a job to end.
// It is the prototype of a batch design (the e2e benchmark's batch section):
// jobs submitted by resources that do not wait (transcription_job with
// wait_for_completion = false), and waited for by data sources that depend
// on them, in the same apply. Terraform queues each node for one of its
// -parallelism slots once its dependencies are done, first come first
// served, so every submission runs before any wait, and the waits overlap
// on the service: the batch ends near its slowest job.
type jobDoneDataSource struct{ api *api }

type jobDoneModel struct {
	ID     types.String `tfsdk:"id"`
	Status types.String `tfsdk:"status"`
}

func (*jobDoneDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_job_done"
}

func (*jobDoneDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":     schema.StringAttribute{Required: true},
		"status": schema.StringAttribute{Computed: true},
	}}
}

func (d *jobDoneDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if a, ok := req.ProviderData.(*api); ok {
		d.api = a
	}
}

func (d *jobDoneDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m jobDoneModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	j, err := waitDone(ctx, d.api, m.ID.ValueString(), donePollInterval, doneTimeout)
	if err != nil {
		resp.Diagnostics.AddError("Waiting for the job failed", err.Error())
		return
	}
	m.Status = types.StringValue(j.Status)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// waitDone polls the job every interval until it is done, failing when it
// ends in error, is gone, or has not ended within timeout.
func waitDone(ctx context.Context, a *api, id string, interval, timeout time.Duration) (job, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		j, found, err := a.read(ctx, id)
		switch {
		case err != nil:
			return job{}, err
		case !found:
			return job{}, fmt.Errorf("job %s does not exist", id)
		case j.Status == "done":
			return j, nil
		case j.Status == "error":
			return j, fmt.Errorf("job %s ended in error", id)
		}
		t := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return job{}, fmt.Errorf("job %s still %s: %w", id, j.Status, ctx.Err())
		case <-t.C:
		}
	}
}
