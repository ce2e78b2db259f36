package dataset

// reads holds, for each dataset that has them, the paths the get ops read
// from its single value, by the fields' JSON names and slice indices
// ("a.3.b"). The first is one scalar (what a router reads: an ID); the
// first seven a handful of fields at several depths; all of them add a
// time, bytes and a whole nested element (a struct read as a value).
var reads = map[string][]string{
	"huge": {
		"the_biggest_slice.999.big_id",
		"big_slice.0.big_id",
		"big_slice.0.country",
		"big_ptr_slice.7.age",
		"bigger_slice.100.medium.first_name",
		"bigger_slice.100.medium.money_balance",
		"the_biggest_slice.500.tiny.some_str",
		"big_slice.1.created_at",
		"big_slice.2.country_bytes",
		"the_biggest_slice.999",
	},
	"big": {
		"big_id",
		"age",
		"country",
		"medium.first_name",
		"medium.money_balance",
		"tiny.some_str",
		"medium_ptr.medium_id",
		"created_at",
		"country_bytes",
		"medium",
	},
	"twitter_status": {
		"statuses.0.id",
		"statuses.0.text",
		"statuses.0.user.screen_name",
		"statuses.50.user.followers_count",
		"statuses.99.retweet_count",
		"search_metadata.max_id",
		"search_metadata.query",
		"statuses.30.created_at",
		"statuses.99.lang",
		"statuses.10.user",
	},
	"complexdata": {
		"count",
		"active",
		"users.0.id",
		"users.50.name",
		"users.99.email",
		"users.10.id",
		"users.20.name",
		"users.30",
	},
}

// Reads returns the paths the get ops read from the dataset's single
// value, the first the one scalar a one-field get reads; nil when the
// dataset defines none.
func (d *Dataset) Reads() []string { return reads[d.Name] }
