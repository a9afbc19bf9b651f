// Package validators holds the attribute and configuration validators of
// the provider's schemas, one rule a file. Their messages name the attribute
// and the rule, and they check nothing while a value they need is unknown.
package validators
