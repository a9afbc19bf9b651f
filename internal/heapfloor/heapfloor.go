// Package heapfloor keeps the Go garbage collector from running every few
// megabytes in a process whose live heap is small.
//
// The collector starts a cycle when the heap has grown by GOGC percent of
// what the last cycle left live, and at the earliest at 4 MB. The provider
// keeps little alive between requests, but each request Terraform makes
// allocates one to three megabytes in terraform-plugin-framework (its
// conversions of the resource's values), so the collector ran every few
// requests and took about 30 % of the provider's CPU time. An
// allocation the program never writes to counts toward the heap the
// collector paces by, yet the operating system backs none of it with
// memory: the collector then runs once every Size bytes or so, and a
// large live heap (a listing of thousands of live jobs) is given Size more
// room, not a multiple of itself as a higher GOGC would give it.
package heapfloor

// Size is how much the floor adds to the live heap. DESIGN.md ("Garbage
// collection") has the measurements it was chosen from.
const Size = 32 << 20

// floor is never read nor written: it stays alive as a package variable.
var floor []byte

// Reserve allocates the floor, unless the user tunes the collector
// (GOGC or GOMEMLIMIT in the environment, as getenv reads it) or it is
// already reserved. It returns whether it did.
func Reserve(getenv func(string) string) bool {
	if floor != nil || getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	floor = make([]byte, Size)
	return true
}
