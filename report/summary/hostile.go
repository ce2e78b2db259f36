package summary

// hostile writes, when the run has a hostile matrix beside it, one
// paragraph per codec: is it safe to decode untrusted input, and why.
func (s *writer) hostile() {
	h := s.ix.run.Hostile
	if h == nil {
		return
	}
	s.p("")
	s.p("## Safe to decode untrusted input?")
	s.p("")
	quick := ""
	if h.Quick {
		quick = ", -quick: fewer inputs, nesting to 100,000 levels"
	}
	s.p("From the hostile-input matrix (serbench hostile: %d classes of malformed and malicious input, each cell in a child", len(h.Classes))
	s.p("process under a 4 GiB memory cap, a 64 MiB stack cap and a %s timeout per input; %s%s). \"no\" means a few bytes", text(h.Timeout), text(h.Go), quick)
	s.p("can crash, stall or exhaust a process that decodes them; see hostile.csv and the reproducers under hostile/.")
	for _, c := range h.Codecs {
		word, why := h.Verdict(c.Name)
		s.p("")
		s.p("**%s** (%s %s): **%s**. %s", text(c.Name), text(c.Label), text(c.Version), word, text(why))
	}
}
