package fakeserver

// The word bank of the fake transcriber. Every entry carries the same word in
// seven languages (one column per language), so that a transcript can be
// generated in any of them and "translated" word by word into any other by
// looking up the same entry in another column. Grammar is not the point: the
// sentences are built from a few part-of-speech templates and only need to
// look like speech.

// bankLangs are the languages that have a column in the wordBank, in column order.
// A transcription language without a column is written with the English column
// (the utterance still carries the requested language code).
var bankLangs = [...]string{"en", "fr", "de", "es", "it", "pt", "nl"}

// bankLangNames names the bank languages in English, for summaries.
var bankLangNames = map[string]string{
	"en": "English", "fr": "French", "de": "German", "es": "Spanish",
	"it": "Italian", "pt": "Portuguese", "nl": "Dutch",
}

// bankColumn returns the bank column of a language, or -1 when it has none.
func bankColumn(lang string) int {
	for i, l := range bankLangs {
		if l == lang {
			return i
		}
	}
	return -1
}

// Parts of speech used by the sentence templates.
const (
	posDet  = 'D'
	posNoun = 'N'
	posVerb = 'V'
	posAdj  = 'A'
	posAdv  = 'X'
	posPrep = 'P'
	posConj = 'C'
	posEnt  = 'E' // a named entity (see specialEntities), not a bank word
)

type bankWord struct {
	pos  byte
	sent int8 // sentiment: +1 positive, -1 negative, 0 neutral
	w    [len(bankLangs)]string
}

var wordBank = []bankWord{
	// determiners
	{posDet, 0, [7]string{"the", "le", "der", "el", "il", "o", "de"}},
	{posDet, 0, [7]string{"a", "un", "ein", "un", "un", "um", "een"}},
	{posDet, 0, [7]string{"this", "ce", "dieser", "este", "questo", "este", "deze"}},
	{posDet, 0, [7]string{"our", "notre", "unser", "nuestro", "nostro", "nosso", "ons"}},
	{posDet, 0, [7]string{"every", "chaque", "jeder", "cada", "ogni", "cada", "elke"}},
	// nouns
	{posNoun, 0, [7]string{"team", "équipe", "Team", "equipo", "squadra", "equipe", "team"}},
	{posNoun, 0, [7]string{"project", "projet", "Projekt", "proyecto", "progetto", "projeto", "project"}},
	{posNoun, 0, [7]string{"meeting", "réunion", "Besprechung", "reunión", "riunione", "reunião", "vergadering"}},
	{posNoun, 0, [7]string{"report", "rapport", "Bericht", "informe", "rapporto", "relatório", "rapport"}},
	{posNoun, 0, [7]string{"customer", "client", "Kunde", "cliente", "cliente", "cliente", "klant"}},
	{posNoun, 0, [7]string{"product", "produit", "Produkt", "producto", "prodotto", "produto", "product"}},
	{posNoun, 0, [7]string{"market", "marché", "Markt", "mercado", "mercato", "mercado", "markt"}},
	{posNoun, 0, [7]string{"plan", "plan", "Plan", "plan", "piano", "plano", "plan"}},
	{posNoun, 0, [7]string{"idea", "idée", "Idee", "idea", "idea", "ideia", "idee"}},
	{posNoun, 0, [7]string{"question", "question", "Frage", "pregunta", "domanda", "pergunta", "vraag"}},
	{posNoun, 0, [7]string{"answer", "réponse", "Antwort", "respuesta", "risposta", "resposta", "antwoord"}},
	{posNoun, 0, [7]string{"result", "résultat", "Ergebnis", "resultado", "risultato", "resultado", "resultaat"}},
	{posNoun, 0, [7]string{"budget", "budget", "Budget", "presupuesto", "bilancio", "orçamento", "budget"}},
	{posNoun, 0, [7]string{"schedule", "calendrier", "Zeitplan", "calendario", "programma", "cronograma", "planning"}},
	{posNoun, 0, [7]string{"service", "service", "Dienst", "servicio", "servizio", "serviço", "dienst"}},
	{posNoun, 0, [7]string{"system", "système", "System", "sistema", "sistema", "sistema", "systeem"}},
	{posNoun, 0, [7]string{"data", "données", "Daten", "datos", "dati", "dados", "gegevens"}},
	{posNoun, 0, [7]string{"weather", "temps", "Wetter", "tiempo", "tempo", "tempo", "weer"}},
	{posNoun, 0, [7]string{"week", "semaine", "Woche", "semana", "settimana", "semana", "week"}},
	{posNoun, 0, [7]string{"morning", "matin", "Morgen", "mañana", "mattina", "manhã", "ochtend"}},
	{posNoun, -1, [7]string{"problem", "problème", "Problem", "problema", "problema", "problema", "probleem"}},
	{posNoun, 1, [7]string{"solution", "solution", "Lösung", "solución", "soluzione", "solução", "oplossing"}},
	{posNoun, 0, [7]string{"feature", "fonction", "Funktion", "función", "funzione", "recurso", "functie"}},
	{posNoun, 0, [7]string{"price", "prix", "Preis", "precio", "prezzo", "preço", "prijs"}},
	{posNoun, -1, [7]string{"delay", "retard", "Verzögerung", "retraso", "ritardo", "atraso", "vertraging"}},
	// verbs
	{posVerb, 1, [7]string{"improves", "améliore", "verbessert", "mejora", "migliora", "melhora", "verbetert"}},
	{posVerb, 1, [7]string{"supports", "soutient", "unterstützt", "apoya", "supporta", "apoia", "ondersteunt"}},
	{posVerb, 0, [7]string{"changes", "change", "ändert", "cambia", "cambia", "muda", "verandert"}},
	{posVerb, 0, [7]string{"reviews", "examine", "prüft", "revisa", "esamina", "revisa", "beoordeelt"}},
	{posVerb, 0, [7]string{"delivers", "livre", "liefert", "entrega", "consegna", "entrega", "levert"}},
	{posVerb, 0, [7]string{"follows", "suit", "folgt", "sigue", "segue", "segue", "volgt"}},
	{posVerb, 0, [7]string{"shows", "montre", "zeigt", "muestra", "mostra", "mostra", "toont"}},
	{posVerb, 0, [7]string{"explains", "explique", "erklärt", "explica", "spiega", "explica", "verklaart"}},
	{posVerb, -1, [7]string{"blocks", "bloque", "blockiert", "bloquea", "blocca", "bloqueia", "blokkeert"}},
	{posVerb, 0, [7]string{"affects", "affecte", "beeinflusst", "afecta", "influenza", "afeta", "beïnvloedt"}},
	{posVerb, 0, [7]string{"includes", "inclut", "enthält", "incluye", "include", "inclui", "bevat"}},
	{posVerb, 0, [7]string{"requires", "exige", "erfordert", "requiere", "richiede", "exige", "vereist"}},
	// adjectives
	{posAdj, 0, [7]string{"new", "nouveau", "neue", "nuevo", "nuovo", "novo", "nieuwe"}},
	{posAdj, 1, [7]string{"good", "bon", "gute", "buen", "buon", "bom", "goede"}},
	{posAdj, 1, [7]string{"great", "excellent", "großartige", "gran", "ottimo", "ótimo", "geweldige"}},
	{posAdj, 0, [7]string{"simple", "simple", "einfache", "simple", "semplice", "simples", "eenvoudige"}},
	{posAdj, 0, [7]string{"important", "important", "wichtige", "importante", "importante", "importante", "belangrijke"}},
	{posAdj, -1, [7]string{"difficult", "difficile", "schwierige", "difícil", "difficile", "difícil", "moeilijke"}},
	{posAdj, -1, [7]string{"late", "tardif", "späte", "tardío", "tardivo", "tardio", "late"}},
	{posAdj, 1, [7]string{"clear", "clair", "klare", "claro", "chiaro", "claro", "duidelijke"}},
	{posAdj, 0, [7]string{"final", "final", "endgültige", "final", "finale", "final", "definitieve"}},
	{posAdj, 0, [7]string{"next", "prochain", "nächste", "próximo", "prossimo", "próximo", "volgende"}},
	{posAdj, 0, [7]string{"current", "actuel", "aktuelle", "actual", "attuale", "atual", "huidige"}},
	{posAdj, -1, [7]string{"bad", "mauvais", "schlechte", "mal", "cattivo", "mau", "slechte"}},
	// adverbs
	{posAdv, 0, [7]string{"today", "aujourd'hui", "heute", "hoy", "oggi", "hoje", "vandaag"}},
	{posAdv, 0, [7]string{"again", "encore", "wieder", "nuevamente", "ancora", "novamente", "opnieuw"}},
	{posAdv, 0, [7]string{"quickly", "rapidement", "schnell", "rápidamente", "rapidamente", "rapidamente", "snel"}},
	{posAdv, 0, [7]string{"carefully", "soigneusement", "sorgfältig", "cuidadosamente", "attentamente", "cuidadosamente", "zorgvuldig"}},
	{posAdv, 0, [7]string{"now", "maintenant", "jetzt", "ahora", "ora", "agora", "nu"}},
	{posAdv, 0, [7]string{"also", "aussi", "auch", "también", "anche", "também", "ook"}},
	{posAdv, 1, [7]string{"really", "vraiment", "wirklich", "realmente", "davvero", "realmente", "echt"}},
	// prepositions
	{posPrep, 0, [7]string{"with", "avec", "mit", "con", "con", "com", "met"}},
	{posPrep, 0, [7]string{"for", "pour", "für", "para", "per", "para", "voor"}},
	{posPrep, 0, [7]string{"after", "après", "nach", "tras", "dopo", "após", "na"}},
	{posPrep, 0, [7]string{"without", "sans", "ohne", "sin", "senza", "sem", "zonder"}},
	{posPrep, 0, [7]string{"during", "pendant", "während", "durante", "durante", "durante", "tijdens"}},
	// conjunctions
	{posConj, 0, [7]string{"and", "et", "und", "y", "e", "e", "en"}},
	{posConj, 0, [7]string{"but", "mais", "aber", "pero", "ma", "mas", "maar"}},
	{posConj, 0, [7]string{"so", "donc", "also", "entonces", "quindi", "então", "dus"}},
}

// bankByPOS lists the bank indexes of each part of speech.
var bankByPOS = func() map[byte][]int16 {
	m := make(map[byte][]int16)
	for i, w := range wordBank {
		m[w.pos] = append(m[w.pos], int16(i))
	}
	return m
}()

// sentenceTemplates are the shapes of ordinary sentences, one letter per word.
var sentenceTemplates = []string{
	"DNVDN",
	"DANVDNX",
	"DNXVDANPDN",
	"PDNDNVDN",
	"DNVDNCDNVX",
	"XDANVDNPDAN",
	"DNVX",
	"DNVDANCXDNVDN",
	"DAANVDN",
	"XDNVDN",
}

// entityTemplates are the shapes of sentences that mention a named entity.
// An entity never opens a sentence, so sentence capitalisation never alters it.
var entityTemplates = []string{
	"DNVDNPE",
	"DNPEVDN",
	"XDNVDANPE",
	"DNVDNCEVDN",
}

// specialEntity is a kind of named entity the transcript mentions. The entity
// types are values of PiiRedactionEntityTypeEnum, so the same tags drive named
// entity recognition and PII redaction.
type specialEntity struct {
	entityType string
	values     []string
}

// specialEntities are mentioned in turn by the second, third and fourth
// sentences and then by every third sentence: a name, an e-mail address and a
// phone number come first so that even a short recording holds some PII.
var specialEntities = []specialEntity{
	{"NAME", []string{"Alice Martin", "Bruno Keller", "Chloe Dubois", "David Okafor"}},
	{"EMAIL_ADDRESS", []string{"alice.martin@example.com", "b.keller@example.org", "chloe.dubois@example.net"}},
	{"PHONE_NUMBER", []string{"555-0142", "555-0198", "555-0123"}},
	{"LOCATION_CITY", []string{"Paris", "London", "Berlin", "Toronto", "New York"}},
	{"ORGANIZATION", []string{"Acme Corporation", "Globex", "Initech"}},
}

// piiGroupTypes are entity types of PiiRedactionEntityTypeEnum that name a
// whole privacy regime or the core set; each selects every special entity.
var piiGroupTypes = map[string]bool{
	"APPI": true, "CORE_ENTITIES": true, "CPRA": true, "GDPR": true,
	"HIPAA_SAFE_HARBOR": true, "LIDI": true, "QUEBEC_PRIVACY_ACT": true,
}

// piiSelectors lists, per special entity type, the configured entity types
// that select it for redaction (besides the groups above).
var piiSelectors = map[string][]string{
	"NAME":          {"NAME", "NAME_GIVEN", "NAME_FAMILY"},
	"EMAIL_ADDRESS": {"EMAIL_ADDRESS"},
	"PHONE_NUMBER":  {"PHONE_NUMBER", "NUMERICAL_PII", "NUMERICAL_EXCL_PCI"},
	"LOCATION_CITY": {"LOCATION", "LOCATION_CITY"},
	"ORGANIZATION":  {"ORGANIZATION"},
}
