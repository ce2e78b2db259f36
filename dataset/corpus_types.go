// The corpus types follow go-json-experiment/json's jsontest types
// (Copyright 2020 The Go Authors, BSD-3-Clause: testdata/corpus/LICENSE),
// with three changes so that every codec that can hold a document's
// structure holds these: a field that is null in every occurrence is a
// pointer, not an interface; a field whose JSON type varies between
// records is a struct with a field per type, whose JSON methods read and
// write whichever the record has (corpus_json.go); and timestamps, ids
// and map keys stay the strings the documents hold.

package dataset

// Canada is canada_geometry: the GeoJSON outline of Canada, 111,000 full-
// precision coordinates.
type Canada struct {
	Type     string          `json:"type"`
	Features []CanadaFeature `json:"features"`
}

// A CanadaFeature is one GeoJSON feature of Canada.
type CanadaFeature struct {
	Type       string `json:"type"`
	Properties struct {
		Name string `json:"name"`
	} `json:"properties"`
	Geometry struct {
		Type        string         `json:"type"`
		Coordinates [][][2]float64 `json:"coordinates"`
	} `json:"geometry"`
}

// CITM is citm_catalog: a ticket catalogue of events, performances, prices
// and seat areas, most of it in maps keyed by ids.
type CITM struct {
	AreaNames                map[string]string    `json:"areaNames"`
	AudienceSubCategoryNames map[string]string    `json:"audienceSubCategoryNames"`
	BlockNames               map[string]string    `json:"blockNames"`
	Events                   map[string]CITMEvent `json:"events"`
	Performances             []CITMPerformance    `json:"performances"`
	SeatCategoryNames        map[string]string    `json:"seatCategoryNames"`
	SubTopicNames            map[string]string    `json:"subTopicNames"`
	SubjectNames             map[string]string    `json:"subjectNames"`
	TopicNames               map[string]string    `json:"topicNames"`
	TopicSubTopics           map[string][]int64   `json:"topicSubTopics"`
	VenueNames               map[string]string    `json:"venueNames"`
}

// A CITMEvent is one event of the catalogue.
type CITMEvent struct {
	Description *string `json:"description"` // null in every event
	ID          int64   `json:"id"`
	Logo        *string `json:"logo"`
	Name        string  `json:"name"`
	SubTopicIDs []int64 `json:"subTopicIds"`
	SubjectCode *string `json:"subjectCode"` // null in every event
	Subtitle    *string `json:"subtitle"`    // null in every event
	TopicIDs    []int64 `json:"topicIds"`
}

// A CITMPerformance is one performance of an event, with its prices.
type CITMPerformance struct {
	EventID int64   `json:"eventId"`
	ID      int64   `json:"id"`
	Logo    *string `json:"logo"`
	Name    *string `json:"name"` // null in every performance
	Prices  []struct {
		Amount                int64 `json:"amount"`
		AudienceSubCategoryID int64 `json:"audienceSubCategoryId"`
		SeatCategoryID        int64 `json:"seatCategoryId"`
	} `json:"prices"`
	SeatCategories []struct {
		Areas []struct {
			AreaID   int64   `json:"areaId"`
			BlockIDs []int64 `json:"blockIds"` // empty in every area
		} `json:"areas"`
		SeatCategoryID int64 `json:"seatCategoryId"`
	} `json:"seatCategories"`
	SeatMapImage *string `json:"seatMapImage"` // null in every performance
	Start        int64   `json:"start"`
	VenueCode    string  `json:"venueCode"`
}

// Golang is golang_source: the Go source tree's directories and files,
// fifteen levels deep, with commit statistics.
type Golang struct {
	Tree     *GolangNode `json:"tree"`
	Username string      `json:"username"`
}

// A GolangNode is a directory or a file of the tree.
type GolangNode struct {
	Name     string       `json:"name"`
	Kids     []GolangNode `json:"kids"`
	CLWeight float64      `json:"cl_weight"`
	Touches  int64        `json:"touches"`
	MinT     uint64       `json:"min_t"`
	MaxT     uint64       `json:"max_t"`
	MeanT    uint64       `json:"mean_t"`
}

// Strings is string_escaped and string_unicode: sixty Unicode blocks,
// each a string of its characters; string_escaped writes every one as a
// \u escape, string_unicode as UTF-8.
type Strings struct {
	Arabic                             string `json:"Arabic"`
	ArabicPresentationFormsA           string `json:"Arabic Presentation Forms-A"`
	ArabicPresentationFormsB           string `json:"Arabic Presentation Forms-B"`
	Armenian                           string `json:"Armenian"`
	Arrows                             string `json:"Arrows"`
	Bengali                            string `json:"Bengali"`
	Bopomofo                           string `json:"Bopomofo"`
	BoxDrawing                         string `json:"Box Drawing"`
	CJKCompatibility                   string `json:"CJK Compatibility"`
	CJKCompatibilityForms              string `json:"CJK Compatibility Forms"`
	CJKCompatibilityIdeographs         string `json:"CJK Compatibility Ideographs"`
	CJKSymbolsAndPunctuation           string `json:"CJK Symbols and Punctuation"`
	CJKUnifiedIdeographs               string `json:"CJK Unified Ideographs"`
	CJKUnifiedIdeographsExtensionA     string `json:"CJK Unified Ideographs Extension A"`
	CJKUnifiedIdeographsExtensionB     string `json:"CJK Unified Ideographs Extension B"`
	Cherokee                           string `json:"Cherokee"`
	CurrencySymbols                    string `json:"Currency Symbols"`
	Cyrillic                           string `json:"Cyrillic"`
	CyrillicSupplementary              string `json:"Cyrillic Supplementary"`
	Devanagari                         string `json:"Devanagari"`
	EnclosedAlphanumerics              string `json:"Enclosed Alphanumerics"`
	EnclosedCJKLettersAndMonths        string `json:"Enclosed CJK Letters and Months"`
	Ethiopic                           string `json:"Ethiopic"`
	GeometricShapes                    string `json:"Geometric Shapes"`
	Georgian                           string `json:"Georgian"`
	GreekAndCoptic                     string `json:"Greek and Coptic"`
	Gujarati                           string `json:"Gujarati"`
	Gurmukhi                           string `json:"Gurmukhi"`
	HangulCompatibilityJamo            string `json:"Hangul Compatibility Jamo"`
	HangulJamo                         string `json:"Hangul Jamo"`
	HangulSyllables                    string `json:"Hangul Syllables"`
	Hebrew                             string `json:"Hebrew"`
	Hiragana                           string `json:"Hiragana"`
	IPAExtentions                      string `json:"IPA Extentions"`
	KangxiRadicals                     string `json:"Kangxi Radicals"`
	Katakana                           string `json:"Katakana"`
	Khmer                              string `json:"Khmer"`
	KhmerSymbols                       string `json:"Khmer Symbols"`
	Latin                              string `json:"Latin"`
	LatinExtendedAdditional            string `json:"Latin Extended Additional"`
	Latin1Supplement                   string `json:"Latin-1 Supplement"`
	LatinExtendedA                     string `json:"Latin-Extended A"`
	LatinExtendedB                     string `json:"Latin-Extended B"`
	LetterlikeSymbols                  string `json:"Letterlike Symbols"`
	Malayalam                          string `json:"Malayalam"`
	MathematicalAlphanumericSymbols    string `json:"Mathematical Alphanumeric Symbols"`
	MathematicalOperators              string `json:"Mathematical Operators"`
	MiscellaneousSymbols               string `json:"Miscellaneous Symbols"`
	Mongolian                          string `json:"Mongolian"`
	NumberForms                        string `json:"Number Forms"`
	Oriya                              string `json:"Oriya"`
	PhoneticExtensions                 string `json:"Phonetic Extensions"`
	SupplementalArrowsB                string `json:"Supplemental Arrows-B"`
	Syriac                             string `json:"Syriac"`
	Tamil                              string `json:"Tamil"`
	Thaana                             string `json:"Thaana"`
	Thai                               string `json:"Thai"`
	UnifiedCanadianAboriginalSyllabics string `json:"Unified Canadian Aboriginal Syllabics"`
	YiRadicals                         string `json:"Yi Radicals"`
	YiSyllables                        string `json:"Yi Syllables"`
}

// Synthea is synthea_fhir: a FHIR bundle of one synthetic patient's
// health records, 926 resources of a dozen kinds in one union type.
type Synthea struct {
	Entry []struct {
		FullURL string `json:"fullUrl"`
		Request *struct {
			Method string `json:"method"`
			URL    string `json:"url"`
		} `json:"request"`
		Resource *SyntheaResource `json:"resource"`
	} `json:"entry"`
	ResourceType string `json:"resourceType"`
	Type         string `json:"type"`
}

// A SyntheaResource is the union of the bundle's resources' fields.
type SyntheaResource struct {
	AbatementDateTime string      `json:"abatementDateTime"`
	AchievementStatus SyntheaCode `json:"achievementStatus"`
	Active            bool        `json:"active"`
	Activity          []struct {
		Detail *struct {
			Code     SyntheaCode      `json:"code"`
			Location SyntheaReference `json:"location"`
			Status   string           `json:"status"`
		} `json:"detail"`
	} `json:"activity"`
	Address        []SyntheaAddress   `json:"address"`
	Addresses      []SyntheaReference `json:"addresses"`
	AuthoredOn     string             `json:"authoredOn"`
	BillablePeriod SyntheaRange       `json:"billablePeriod"`
	BirthDate      string             `json:"birthDate"`
	CareTeam       []struct {
		Provider  SyntheaReference `json:"provider"`
		Reference string           `json:"reference"`
		Role      SyntheaCode      `json:"role"`
		Sequence  int64            `json:"sequence"`
	} `json:"careTeam"`
	Category       []SyntheaCode    `json:"category"`
	Claim          SyntheaReference `json:"claim"`
	Class          SyntheaCoding    `json:"class"`
	ClinicalStatus SyntheaCode      `json:"clinicalStatus"`
	Code           SyntheaCode      `json:"code"`
	Communication  []struct {
		Language SyntheaCode `json:"language"`
	} `json:"communication"`
	Component []struct {
		Code          SyntheaCode   `json:"code"`
		ValueQuantity SyntheaCoding `json:"valueQuantity"`
	} `json:"component"`
	Contained []struct {
		Beneficiary  SyntheaReference   `json:"beneficiary"`
		ID           string             `json:"id"`
		Intent       string             `json:"intent"`
		Payor        []SyntheaReference `json:"payor"`
		Performer    []SyntheaReference `json:"performer"`
		Requester    SyntheaReference   `json:"requester"`
		ResourceType string             `json:"resourceType"`
		Status       string             `json:"status"`
		Subject      SyntheaReference   `json:"subject"`
		Type         SyntheaCode        `json:"type"`
	} `json:"contained"`
	Created          string      `json:"created"`
	DeceasedDateTime string      `json:"deceasedDateTime"`
	Description      SyntheaCode `json:"description"`
	Diagnosis        []struct {
		DiagnosisReference SyntheaReference `json:"diagnosisReference"`
		Sequence           int64            `json:"sequence"`
		Type               []SyntheaCode    `json:"type"`
	} `json:"diagnosis"`
	DosageInstruction []struct {
		AsNeededBoolean bool `json:"asNeededBoolean"`
		DoseAndRate     []struct {
			DoseQuantity *struct {
				Value float64 `json:"value"`
			} `json:"doseQuantity"`
			Type SyntheaCode `json:"type"`
		} `json:"doseAndRate"`
		Sequence int64 `json:"sequence"`
		Timing   *struct {
			Repeat *struct {
				Frequency  int64   `json:"frequency"`
				Period     float64 `json:"period"`
				PeriodUnit string  `json:"periodUnit"`
			} `json:"repeat"`
		} `json:"timing"`
	} `json:"dosageInstruction"`
	EffectiveDateTime string             `json:"effectiveDateTime"`
	Encounter         SyntheaReference   `json:"encounter"`
	Extension         []SyntheaExtension `json:"extension"`
	Gender            string             `json:"gender"`
	Goal              []SyntheaReference `json:"goal"`
	ID                string             `json:"id"`
	Identifier        []struct {
		System string      `json:"system"`
		Type   SyntheaCode `json:"type"`
		Use    string      `json:"use"`
		Value  string      `json:"value"`
	} `json:"identifier"`
	Insurance []struct {
		Coverage SyntheaReference `json:"coverage"`
		Focal    bool             `json:"focal"`
		Sequence int64            `json:"sequence"`
	} `json:"insurance"`
	Insurer SyntheaReference `json:"insurer"`
	Intent  string           `json:"intent"`
	Issued  string           `json:"issued"`
	Item    []struct {
		Adjudication            []SyntheaAdjudication `json:"adjudication"`
		Category                SyntheaCode           `json:"category"`
		DiagnosisSequence       []int64               `json:"diagnosisSequence"`
		Encounter               []SyntheaReference    `json:"encounter"`
		InformationSequence     []int64               `json:"informationSequence"`
		LocationCodeableConcept SyntheaCode           `json:"locationCodeableConcept"`
		Net                     SyntheaCurrency       `json:"net"`
		ProcedureSequence       []int64               `json:"procedureSequence"`
		ProductOrService        SyntheaCode           `json:"productOrService"`
		Sequence                int64                 `json:"sequence"`
		ServicedPeriod          SyntheaRange          `json:"servicedPeriod"`
	} `json:"item"`
	LifecycleStatus           string             `json:"lifecycleStatus"`
	ManagingOrganization      []SyntheaReference `json:"managingOrganization"`
	MaritalStatus             SyntheaCode        `json:"maritalStatus"`
	MedicationCodeableConcept SyntheaCode        `json:"medicationCodeableConcept"`
	MultipleBirthBoolean      bool               `json:"multipleBirthBoolean"`
	Name                      SyntheaName        `json:"name"`
	NumberOfInstances         int64              `json:"numberOfInstances"`
	NumberOfSeries            int64              `json:"numberOfSeries"`
	OccurrenceDateTime        string             `json:"occurrenceDateTime"`
	OnsetDateTime             string             `json:"onsetDateTime"`
	Outcome                   string             `json:"outcome"`
	Participant               []struct {
		Individual SyntheaReference `json:"individual"`
		Member     SyntheaReference `json:"member"`
		Role       []SyntheaCode    `json:"role"`
	} `json:"participant"`
	Patient SyntheaReference `json:"patient"`
	Payment *struct {
		Amount SyntheaCurrency `json:"amount"`
	} `json:"payment"`
	PerformedPeriod SyntheaRange     `json:"performedPeriod"`
	Period          SyntheaRange     `json:"period"`
	Prescription    SyntheaReference `json:"prescription"`
	PrimarySource   bool             `json:"primarySource"`
	Priority        SyntheaCode      `json:"priority"`
	Procedure       []struct {
		ProcedureReference SyntheaReference `json:"procedureReference"`
		Sequence           int64            `json:"sequence"`
	} `json:"procedure"`
	Provider        SyntheaReference   `json:"provider"`
	ReasonCode      []SyntheaCode      `json:"reasonCode"`
	ReasonReference []SyntheaReference `json:"reasonReference"`
	RecordedDate    string             `json:"recordedDate"`
	Referral        SyntheaReference   `json:"referral"`
	Requester       SyntheaReference   `json:"requester"`
	ResourceType    string             `json:"resourceType"`
	Result          []SyntheaReference `json:"result"`
	Series          []struct {
		BodySite SyntheaCoding `json:"bodySite"`
		Instance []struct {
			Number   int64         `json:"number"`
			SopClass SyntheaCoding `json:"sopClass"`
			Title    string        `json:"title"`
			UID      string        `json:"uid"`
		} `json:"instance"`
		Modality          SyntheaCoding `json:"modality"`
		Number            int64         `json:"number"`
		NumberOfInstances int64         `json:"numberOfInstances"`
		Started           string        `json:"started"`
		UID               string        `json:"uid"`
	} `json:"series"`
	ServiceProvider SyntheaReference `json:"serviceProvider"`
	Started         string           `json:"started"`
	Status          string           `json:"status"`
	Subject         SyntheaReference `json:"subject"`
	SupportingInfo  []struct {
		Category       SyntheaCode      `json:"category"`
		Sequence       int64            `json:"sequence"`
		ValueReference SyntheaReference `json:"valueReference"`
	} `json:"supportingInfo"`
	Telecom              []map[string]string `json:"telecom"`
	Text                 map[string]string   `json:"text"`
	Total                SyntheaTotal        `json:"total"`
	Type                 SyntheaType         `json:"type"`
	Use                  string              `json:"use"`
	VaccineCode          SyntheaCode         `json:"vaccineCode"`
	ValueCodeableConcept SyntheaCode         `json:"valueCodeableConcept"`
	ValueQuantity        SyntheaCoding       `json:"valueQuantity"`
	VerificationStatus   SyntheaCode         `json:"verificationStatus"`
}

// A SyntheaCode is a FHIR CodeableConcept.
type SyntheaCode struct {
	Coding []SyntheaCoding `json:"coding"`
	Text   string          `json:"text"`
}

// A SyntheaCoding is a FHIR Coding or Quantity.
type SyntheaCoding struct {
	Code    string  `json:"code"`
	Display string  `json:"display"`
	System  string  `json:"system"`
	Unit    string  `json:"unit"`
	Value   float64 `json:"value"`
}

// A SyntheaReference is a FHIR Reference.
type SyntheaReference struct {
	Display   string `json:"display"`
	Reference string `json:"reference"`
}

// A SyntheaAddress is a FHIR Address.
type SyntheaAddress struct {
	City       string             `json:"city"`
	Country    string             `json:"country"`
	Extension  []SyntheaExtension `json:"extension"`
	Line       []string           `json:"line"`
	PostalCode string             `json:"postalCode"`
	State      string             `json:"state"`
}

// A SyntheaExtension is a FHIR Extension.
type SyntheaExtension struct {
	URL          string             `json:"url"`
	ValueAddress SyntheaAddress     `json:"valueAddress"`
	ValueCode    string             `json:"valueCode"`
	ValueCoding  SyntheaCoding      `json:"valueCoding"`
	ValueDecimal float64            `json:"valueDecimal"`
	ValueString  string             `json:"valueString"`
	Extension    []SyntheaExtension `json:"extension"`
}

// A SyntheaRange is a FHIR Period.
type SyntheaRange struct {
	End   string `json:"end"`
	Start string `json:"start"`
}

// A SyntheaCurrency is a FHIR Money.
type SyntheaCurrency struct {
	Currency string  `json:"currency"`
	Value    float64 `json:"value"`
}

// A SyntheaAdjudication is an adjudication of a claim item or a total.
type SyntheaAdjudication struct {
	Amount   SyntheaCurrency `json:"amount"`
	Category SyntheaCode     `json:"category"`
}

// A SyntheaHumanName is a FHIR HumanName.
type SyntheaHumanName struct {
	Use    string   `json:"use"`
	Family string   `json:"family"`
	Given  []string `json:"given"`
	Prefix []string `json:"prefix"`
}

// A SyntheaName is a resource's name: a list of human names (a patient, a
// practitioner) or a string (an organization, a location).
type SyntheaName struct {
	Text   string
	Humans []SyntheaHumanName
}

// A SyntheaType is a resource's type: one CodeableConcept (a claim) or a
// list of them (an encounter).
type SyntheaType struct {
	One  SyntheaCode
	List []SyntheaCode
}

// A SyntheaTotal is a resource's total: an amount (a claim) or a list of
// adjudicated amounts (an explanation of benefit).
type SyntheaTotal struct {
	Amount SyntheaCurrency
	List   []SyntheaAdjudication
}

// Twitter is twitter_status: a page of 100 statuses from Twitter's search
// API, with their users, entities and retweeted statuses, much of it in
// Japanese.
type Twitter struct {
	Statuses       []TwitterStatus `json:"statuses"`
	SearchMetadata struct {
		CompletedIn float64 `json:"completed_in"`
		MaxID       int64   `json:"max_id"`
		MaxIDStr    string  `json:"max_id_str"`
		NextResults string  `json:"next_results"`
		Query       string  `json:"query"`
		RefreshURL  string  `json:"refresh_url"`
		Count       int64   `json:"count"`
		SinceID     int64   `json:"since_id"`
		SinceIDStr  string  `json:"since_id_str"`
	} `json:"search_metadata"`
}

// A TwitterStatus is one tweet and the tweet it retweets, if any.
type TwitterStatus struct {
	TwitterTweet
	RetweetedStatus *TwitterTweet `json:"retweeted_status"`
}

// A TwitterTweet is a tweet's own fields. (A retweeted tweet has no
// retweeted_status in the document: the type is not recursive, so that
// codecs that cannot hold a recursive type hold it.)
type TwitterTweet struct {
	Metadata struct {
		ResultType      string `json:"result_type"`
		IsoLanguageCode string `json:"iso_language_code"`
	} `json:"metadata"`
	CreatedAt            string          `json:"created_at"`
	ID                   int64           `json:"id"`
	IDStr                string          `json:"id_str"`
	Text                 string          `json:"text"`
	Source               string          `json:"source"`
	Truncated            bool            `json:"truncated"`
	InReplyToStatusID    *int64          `json:"in_reply_to_status_id"`
	InReplyToStatusIDStr *string         `json:"in_reply_to_status_id_str"`
	InReplyToUserID      *int64          `json:"in_reply_to_user_id"`
	InReplyToUserIDStr   *string         `json:"in_reply_to_user_id_str"`
	InReplyToScreenName  *string         `json:"in_reply_to_screen_name"`
	User                 TwitterUser     `json:"user"`
	Geo                  *string         `json:"geo"`          // null in every status
	Coordinates          *string         `json:"coordinates"`  // null in every status
	Place                *string         `json:"place"`        // null in every status
	Contributors         *string         `json:"contributors"` // null in every status
	RetweetCount         int64           `json:"retweet_count"`
	FavoriteCount        int64           `json:"favorite_count"`
	Entities             TwitterEntities `json:"entities"`
	Favorited            bool            `json:"favorited"`
	Retweeted            bool            `json:"retweeted"`
	PossiblySensitive    bool            `json:"possibly_sensitive"`
	Lang                 string          `json:"lang"`
}

// A TwitterUser is a status's author.
type TwitterUser struct {
	ID          int64   `json:"id"`
	IDStr       string  `json:"id_str"`
	Name        string  `json:"name"`
	ScreenName  string  `json:"screen_name"`
	Location    string  `json:"location"`
	Description string  `json:"description"`
	URL         *string `json:"url"`
	Entities    struct {
		URL         *TwitterURLs `json:"url"`
		Description TwitterURLs  `json:"description"`
	} `json:"entities"`
	Protected                      bool    `json:"protected"`
	FollowersCount                 int64   `json:"followers_count"`
	FriendsCount                   int64   `json:"friends_count"`
	ListedCount                    int64   `json:"listed_count"`
	CreatedAt                      string  `json:"created_at"`
	FavouritesCount                int64   `json:"favourites_count"`
	UtcOffset                      *int64  `json:"utc_offset"`
	TimeZone                       *string `json:"time_zone"`
	GeoEnabled                     bool    `json:"geo_enabled"`
	Verified                       bool    `json:"verified"`
	StatusesCount                  int64   `json:"statuses_count"`
	Lang                           string  `json:"lang"`
	ContributorsEnabled            bool    `json:"contributors_enabled"`
	IsTranslator                   bool    `json:"is_translator"`
	IsTranslationEnabled           bool    `json:"is_translation_enabled"`
	ProfileBackgroundColor         string  `json:"profile_background_color"`
	ProfileBackgroundImageURL      string  `json:"profile_background_image_url"`
	ProfileBackgroundImageURLHTTPS string  `json:"profile_background_image_url_https"`
	ProfileBackgroundTile          bool    `json:"profile_background_tile"`
	ProfileImageURL                string  `json:"profile_image_url"`
	ProfileImageURLHTTPS           string  `json:"profile_image_url_https"`
	ProfileBannerURL               string  `json:"profile_banner_url"`
	ProfileLinkColor               string  `json:"profile_link_color"`
	ProfileSidebarBorderColor      string  `json:"profile_sidebar_border_color"`
	ProfileSidebarFillColor        string  `json:"profile_sidebar_fill_color"`
	ProfileTextColor               string  `json:"profile_text_color"`
	ProfileUseBackgroundImage      bool    `json:"profile_use_background_image"`
	DefaultProfile                 bool    `json:"default_profile"`
	DefaultProfileImage            bool    `json:"default_profile_image"`
	Following                      bool    `json:"following"`
	FollowRequestSent              bool    `json:"follow_request_sent"`
	Notifications                  bool    `json:"notifications"`
}

// TwitterEntities are what a status's text links to.
type TwitterEntities struct {
	Hashtags     []TwitterHashtag `json:"hashtags"`
	Symbols      []TwitterHashtag `json:"symbols"` // empty in every status
	URLs         []TwitterURL     `json:"urls"`
	UserMentions []struct {
		ScreenName string  `json:"screen_name"`
		Name       string  `json:"name"`
		ID         int64   `json:"id"`
		IDStr      string  `json:"id_str"`
		Indices    []int64 `json:"indices"`
	} `json:"user_mentions"`
	Media []struct {
		ID            int64   `json:"id"`
		IDStr         string  `json:"id_str"`
		Indices       []int64 `json:"indices"`
		MediaURL      string  `json:"media_url"`
		MediaURLHTTPS string  `json:"media_url_https"`
		URL           string  `json:"url"`
		DisplayURL    string  `json:"display_url"`
		ExpandedURL   string  `json:"expanded_url"`
		Type          string  `json:"type"`
		Sizes         map[string]struct {
			W      int64  `json:"w"`
			H      int64  `json:"h"`
			Resize string `json:"resize"`
		} `json:"sizes"`
		SourceStatusID    int64  `json:"source_status_id"`
		SourceStatusIDStr string `json:"source_status_id_str"`
	} `json:"media"`
}

// A TwitterHashtag is a hashtag (or a cashtag) in a status's text.
type TwitterHashtag struct {
	Text    string  `json:"text"`
	Indices []int64 `json:"indices"`
}

// TwitterURLs are the links in a user's URL or description.
type TwitterURLs struct {
	URLs []TwitterURL `json:"urls"`
}

// A TwitterURL is a link in a text.
type TwitterURL struct {
	URL         string  `json:"url"`
	ExpandedURL string  `json:"expanded_url"`
	DisplayURL  string  `json:"display_url"`
	Indices     []int64 `json:"indices"`
}
