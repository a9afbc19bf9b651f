package main

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/transcription-service/terraform-provider-transcription/internal/fakeserver"
)

func TestAPI_createReadDeleteAgainstTheFakeServer(t *testing.T) {
	fake := fakeserver.New(fakeserver.Options{APIKey: "k"})
	defer fake.Close()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	a := newAPI(srv.URL+"/", "k")
	ctx := context.Background()

	j, err := a.create(ctx, "https://media.example.com/a.wav")
	if err != nil {
		t.Fatal(err)
	}
	if j.ID == "" || j.Status == "" {
		t.Fatalf("create returned %+v, want an id and a status", j)
	}
	got, found, err := a.read(ctx, j.ID)
	if err != nil || !found || got.ID != j.ID {
		t.Fatalf("read = %+v, %v, %v", got, found, err)
	}
	if err := a.delete(ctx, j.ID); err != nil {
		t.Fatal(err)
	}
	if _, found, err := a.read(ctx, j.ID); err != nil || found {
		t.Fatalf("read after delete: found %v, %v; want a 404 read as gone", found, err)
	}
	if err := a.delete(ctx, j.ID); err != nil {
		t.Errorf("deleting a job already gone: %v", err)
	}
}

func TestAPI_wrongKeyIsAnError(t *testing.T) {
	fake := fakeserver.New(fakeserver.Options{APIKey: "k"})
	defer fake.Close()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	if _, err := newAPI(srv.URL, "wrong").create(context.Background(), "https://media.example.com/a.wav"); err == nil {
		t.Fatal("create with a wrong key succeeded")
	}
}

func TestSettings_argumentsWinOverEnvironment(t *testing.T) {
	env := map[string]string{"TRANSCRIPTION_BASE_URL": "http://env", "TRANSCRIPTION_API_KEY": "env-key"}
	getenv := func(k string) string { return env[k] }

	base, key := settings(providerModel{BaseURL: types.StringNull(), APIKey: types.StringNull()}, getenv)
	if base != "http://env" || key != "env-key" {
		t.Errorf("from the environment: %q, %q", base, key)
	}
	base, key = settings(providerModel{BaseURL: types.StringValue("http://arg"), APIKey: types.StringValue("arg-key")}, getenv)
	if base != "http://arg" || key != "arg-key" {
		t.Errorf("from the arguments: %q, %q", base, key)
	}
}
