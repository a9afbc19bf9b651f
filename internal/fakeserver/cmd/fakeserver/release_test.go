package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// releasePlatforms are the OS/arch pairs of .goreleaser.yml's builds.
var releasePlatforms = []string{
	"linux_amd64", "linux_arm64", "linux_arm", "linux_386",
	"darwin_amd64", "darwin_arm64",
	"windows_amd64", "windows_arm64", "windows_386",
	"freebsd_amd64", "freebsd_arm64", "freebsd_arm", "freebsd_386",
}

// TestReleaseLayout checks a GoReleaser dist/ folder (RELEASE_DIST; `make
// release-check` builds a snapshot and runs it): the provider's files as the
// Terraform Registry requires them, its SHA256SUMS listing only the
// provider's zips and the manifest (the registry rejects anything else
// there), and the emulator's archives beside them, one per platform.
func TestReleaseLayout(t *testing.T) {
	dist := os.Getenv("RELEASE_DIST")
	if dist == "" {
		t.Skip("RELEASE_DIST names no GoReleaser dist folder (make release-check sets it)")
	}
	const project = "terraform-provider-transcription"
	sumsFiles, _ := filepath.Glob(filepath.Join(dist, project+"_*_SHA256SUMS"))
	if len(sumsFiles) != 1 {
		t.Fatalf("SHA256SUMS files in %s: %v, want one", dist, sumsFiles)
	}
	sumsName := filepath.Base(sumsFiles[0])
	version := strings.TrimSuffix(strings.TrimPrefix(sumsName, project+"_"), "_SHA256SUMS")

	listed := map[string]string{}
	f, err := os.Open(sumsFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	allowed := regexp.MustCompile(`^` + regexp.QuoteMeta(project+"_"+version+"_") + `(manifest\.json|[a-z0-9]+_[a-z0-9]+\.zip)$`)
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		sum, name, ok := strings.Cut(lines.Text(), "  ")
		if !ok || !allowed.MatchString(name) {
			t.Errorf("%s lists %q: the registry accepts only the provider's zips and the manifest there", sumsName, lines.Text())
		}
		listed[name] = sum
	}
	manifest := project + "_" + version + "_manifest.json"
	if _, ok := listed[manifest]; !ok {
		t.Errorf("%s does not list %s", sumsName, manifest)
	}

	for _, p := range releasePlatforms {
		exe := ""
		if strings.HasPrefix(p, "windows_") {
			exe = ".exe"
		}
		zipName := project + "_" + version + "_" + p + ".zip"
		if got, want := listed[zipName], fileSHA256(t, filepath.Join(dist, zipName)); got != want {
			t.Errorf("%s: SHA256SUMS says %q, the file's is %q", zipName, got, want)
		}
		if names := zipNames(t, filepath.Join(dist, zipName)); !slices.Contains(names, project+"_v"+version+exe) {
			t.Errorf("%s holds %v, not the provider binary %s", zipName, names, project+"_v"+version+exe)
		}

		emulator := "fakeserver_" + version + "_" + p
		var names []string
		if exe != "" {
			emulator += ".zip"
			names = zipNames(t, filepath.Join(dist, emulator))
		} else {
			emulator += ".tar.gz"
			names = tarNames(t, filepath.Join(dist, emulator))
		}
		if !slices.Contains(names, "fakeserver"+exe) {
			t.Errorf("%s holds %v, not fakeserver%s", emulator, names, exe)
		}
		if _, ok := listed[emulator]; ok {
			t.Errorf("%s lists the emulator's %s", sumsName, emulator)
		}
	}
	if want := len(releasePlatforms) + 1; len(listed) != want {
		t.Errorf("%s lists %d files, want %d (the zips and the manifest)", sumsName, len(listed), want)
	}
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Error(err)
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Error(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func zipNames(t *testing.T, path string) []string {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Error(err)
		return nil
	}
	defer r.Close()
	var names []string
	for _, f := range r.File {
		names = append(names, f.Name)
	}
	return names
}

func tarNames(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Error(err)
		return nil
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Error(err)
		return nil
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Error(err)
			return names
		}
		names = append(names, h.Name)
	}
}
