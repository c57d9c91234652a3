package com.crmflow.api.generate.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites the German, French and Spanish phrasings of the intents the offline parser knows into
 * the English it reads ("warte 2 Tage" → "wait 2 days", "sinon" → "otherwise", "cuando se cree un
 * contacto" → "when a contact is created"), and a few English ones into its canonical words
 * ("lifecycle stage" → lifecycle_stage). Quoted text, URLs, #channels and time zones are kept as
 * written. The rules are ordered: longer phrases before the words they contain.
 */
public final class PhraseBook {

  private record Rule(Pattern pattern, String english) {}

  /** What is kept as written: quotes, URLs, channels, IANA zones. */
  private static final Pattern KEPT =
      Pattern.compile(
          "[\"“„«][^\"”“»]{1,200}[\"”“»]|https?://[^\\s,;\"']+[^\\s,;\"'.]|#[\\p{L}0-9_-]+"
              + "|\\b[A-Z][A-Za-z_]+/[A-Z][A-Za-z_]+\\b");

  /** Every rule, for a German, French or Spanish prompt. */
  private static final List<Rule> RULES = new ArrayList<>();

  /** The rules that only put English phrasings into the parser's words, for an English prompt. */
  private static final List<Rule> ENGLISH_RULES = new ArrayList<>();

  private static Rule compiled(String regex, String english) {
    return new Rule(
        Pattern.compile("(?iu)(?<![\\p{L}])(?:" + regex + ")(?![\\p{L}])", Pattern.UNICODE_CASE),
        english);
  }

  private static void rule(String regex, String english) {
    RULES.add(compiled(regex, english));
  }

  private static void english(String regex, String english) {
    Rule rule = compiled(regex, english);
    RULES.add(rule);
    ENGLISH_RULES.add(rule);
  }

  static {
    // ---- triggers (whole phrases first)
    rule(
        "bei (?:einem |jedem )?(?:eingehend(?:em|en|e)? )?webhook(?: eingeht)?",
        "when a webhook arrives");
    rule("wenn ein webhook eingeht", "when a webhook arrives");
    rule(
        "à la réception d'un webhook|à chaque webhook|quand un webhook arrive"
            + "|lorsqu'un webhook arrive",
        "when a webhook arrives");
    rule(
        "al recibir un webhook|con cada webhook|cuando llegue un webhook"
            + "|cuando llega un webhook",
        "when a webhook arrives");
    english(
        "on webhook|when the webhook fires|when a form is submitted via webhook",
        "when a webhook arrives");
    english("new contact(?= *:)", "when a contact is created");
    rule("neuer kontakt|nouveau contact|nuevo contacto", "when a contact is created");
    english("new lead comes in|new lead", "when a lead is created");
    rule("(?:ein |eine )?(?:neuer? )?kontakt (?:angelegt|erstellt) wird", "a contact is created");
    rule("(?:ein )?lead (?:angelegt|erstellt) wird", "a lead is created");
    rule("(?:ein )?kontakt aktualisiert wird", "a contact is updated");
    rule("(?:ein )?deal gewonnen wird", "a deal is won");
    rule("sich die phase einer opportunity ändert", "an opportunity changes stage");
    rule("eine opportunity erstellt wird", "an opportunity is created");
    rule("ein meeting gebucht wird", "a meeting is booked");
    rule("(?:un )?(?:nouveau )?contact est créé", "a contact is created");
    rule("(?:un )?lead est créé", "a lead is created");
    rule("(?:un )?contact est mis à jour", "a contact is updated");
    rule("une opportunité est gagnée", "a deal is won");
    rule("l'étape d'une opportunité change", "an opportunity changes stage");
    rule("une opportunité est créée", "an opportunity is created");
    rule("une réunion est réservée", "a meeting is booked");
    rule("se (?:cree|crea) un (?:nuevo )?contacto", "a contact is created");
    rule("se (?:cree|crea) un lead", "a lead is created");
    rule("se actualice un contacto|se actualiza un contacto", "a contact is updated");
    rule("se gana una oportunidad|se gane una oportunidad", "a deal is won");
    rule("cambie la etapa de una oportunidad", "an opportunity changes stage");
    rule("se cree una oportunidad|se crea una oportunidad", "an opportunity is created");
    rule("se reserve una reunión|se reserva una reunión", "a meeting is booked");
    // ---- schedules
    rule("jeden tag|täglich|tous les jours|chaque jour|todos los días|cada día", "every day");
    for (String[] day :
        new String[][] {
          {"montag|lundi|lunes", "monday"},
          {"dienstag|mardi|martes", "tuesday"},
          {"mittwoch|mercredi|miércoles", "wednesday"},
          {"donnerstag|jeudi|jueves", "thursday"},
          {"freitag|vendredi|viernes", "friday"},
          {"samstag|samedi|sábado", "saturday"},
          {"sonntag|dimanche|domingo", "sunday"}
        }) {
      rule("(?:jeden|chaque|cada|tous les|todos los) (?:" + day[0] + ")s?", "every " + day[1]);
    }
    rule("(\\d{1,2}) ?uhr", "$1:00");
    rule("(\\d{1,2})h(\\d{2})", "$1:$2");
    rule("(\\d{1,2})h", "$1:00");
    // ---- day plans
    // ---- waiting
    rule("nach einer woche|après une semaine|después de una semana", "wait 1 week");
    rule("nach (\\d+) tagen|après (\\d+) jours|después de (\\d+) días", "wait $1$2$3 days");
    rule("(\\d+) tage warten", "wait $1 days");
    rule("warte(?:n)?|attendre|attends|esperar|espera", "wait");
    // ---- branches
    rule("größer als|mehr als|supérieure? à|superieure? a|mayor que|über", "greater than");
    rule("kleiner als|weniger als|inférieure? à|menor que|unter", "less than");
    rule("gleich", "equals");
    rule("liegt", "is");
    rule("das budget|le budget|el presupuesto", "the budget");
    // ---- sequencing
    rule("sofort|tout de suite|enseguida", "");
    english("right away|straight away", "");
    // ---- steps
    rule(
        "willkommens-?e-?mail|willkommensmail|begrüßungsmail|e-mail de bienvenue"
            + "|correo de bienvenida",
        "welcome email");
    rule("follow-up-e-mail|e-mail de relance|correo de seguimiento", "follow-up email");
    rule("nurture-e-mail|e-mail de nurturing|correo de nurturing", "nurture email");
    rule("produkttipps per e-mail|e-mail d'astuces|correo con consejos", "tips email");
    rule("eine umfrage per e-mail|e-mail de sondage|correo con encuesta", "survey email");
    rule("e-mail|email|mail|courriel|correo", "email");
    rule("sende|schicke|verschicke|senden|envoyer|envoie|enviar|envía", "send");
    rule("rufe (\\S+) auf", "call $1");
    rule("(\\S+) aufrufen", "call $1");
    rule("appeler|llamar a|llamar", "call");
    rule(
        "poste das ergebnis in|publier le résultat dans|publicar el resultado en",
        "post the result to");
    rule("in (\\S+) posten", "post to $1");
    rule("schreibe in|posten in|publier dans|publicar en", "post to");
    rule("benachrichtige|prévenir|prévient|avertir|avisar a|avisar|notifier", "notify");
    rule("füge (?:eine )?notiz (.+?) hinzu", "add a note $1");
    rule("ajouter une note|añadir una nota", "add a note");
    rule("erstelle|erstellen|anlegen|créer|crear", "create");
    rule(
        "(?:eine )?aufgabe zum (\\S+)|une tâche pour (\\S+)|una tarea para (\\S+)",
        "a task to $1$2$3");
    // a change names its record and field in many words: "setze die Lifecycle-Phase des Kontakts
    // auf customer" → "set the lifecycle_stage of the contact to customer"
    rule("(?:setze|ändere|aktualisiere) ([^,;.]+?) auf (\\S+)", "set $1 to $2");
    rule("(?:mettre à jour|mettre|passer|changer) ([^,;.]+?) (?:à|en) (\\S+)", "set $1 to $2");
    rule("(?:actualizar|cambiar|poner) ([^,;.]+?) (?:a|en) (\\S+)", "set $1 to $2");
    rule("des kontakts|du contact|del contacto", "of the contact");
    rule("(?:einen |un )?kontakt|un contacto|contacto", "a contact");
    // ---- field names, and the record they belong to
    rule(
        "lifecycle[- ]phase|phase du cycle de vie|etapa del ciclo de vida|ciclo de vida",
        "lifecycle_stage");
    rule("lead-status|statut du lead|estado del lead", "lead_status");
    rule("deal-betrag", "deal amount");
    rule("betrag|montant|importe|monto", "amount");
    rule("wert|valeur|valor", "value");
    rule("phase|étape|etapa", "stage");
    rule("statut|estado", "status");
    rule("land|pays|país", "country");
    rule(
        "der opportunity|des deals|de l'opportunité|du deal|de la oportunidad|del deal",
        "of the deal");
    rule(
        "(?:die|der|das|den|dem) opportunity|l'opportunité|opportunité|la oportunidad|oportunidad",
        "the deal");
    english("lifecycle stage|lifecycle-stage", "lifecycle_stage");
    english("lead status", "lead_status");
    english("lead source", "lead_source");
    english("job title", "title");
    // ---- single words, last: the phrases above contain some of them
    rule("(send|call|create|post|notify|add) (?:dann|danach)", "then $1");
    rule(
        "ansonsten|andernfalls|sonst|dans le cas contraire|autrement|sinon|en caso contrario"
            + "|de lo contrario|si no",
        "otherwise");
    rule("sobald|dès que|en cuanto|tan pronto como", "when");
    rule("falls", "if");
    rule("wenn|quand|lorsqu'|lorsque|cuando", "when");
    rule("si", "if");
    rule("der|die|das|den|dem|le|la|les|el|los", "the");
    rule("ist|est|es", "is");
    rule("und dann|und danach|dann|danach|puis|ensuite|y luego|y después|luego|después", "then");
    rule("und|et|y", "and");
    rule("um|à|a las", "at");
    rule("tag|jour|día", "day");
    rule("tagen?|tage|jours?|días?", "days");
    rule("stunden?|heures?|horas?", "hours");
    rule("wochen?|semaines?|semanas?", "weeks");
    rule("minuten|minutes?|minutos?", "minutes");
    rule("eine|einer|einen|ein|une|una|un", "a");
    rule("tipps|conseils|consejos", "tips");
    // German puts the verb last: "einen Kontakt anlegen", "eine Aufgabe ... erstellen"
    rule("(a (?:contact|task|note)[^,.;]*?) (create|add)(?=$|[,.;])", "$2 $1");
    rule("nachfassen|relance|seguimiento", "follow-up");
  }

  private PhraseBook() {}

  private static final Pattern WHEN =
      Pattern.compile("(?iu)(?<![\\p{L}])(?:wenn|quand|lorsqu'|lorsque|cuando)(?![\\p{L}])");

  private static final Pattern ENGLISH_WORD =
      Pattern.compile(
          "(?iu)(?<![\\p{L}])(?:when|whenever|then|and|the|an|to|for|in|every|wait|send|if|else"
              + "|otherwise|with|of|is|on|after|create|call|post|day|days)(?![\\p{L}])");

  private static final Pattern OTHER_WORD =
      Pattern.compile(
          "(?iu)(?<![\\p{L}])(?:wenn|und|dann|ein|eine|einen|der|die|das|mit|nach|sonst|jeden|bei"
              + "|wird|quand|lorsque|lorsqu|puis|et|un|une|le|la|les|pour|dans|chaque|sinon|est"
              + "|cuando|luego|y|una|el|los|para|en|cada|después|si|se|del|tag|tage|jour|jours"
              + "|día|días|las|al|um|uhr|tous|todos|warte|warten|attendre|esperar|sende|schicke"
              + "|envoyer|enviar|rufe|appeler|llamar|erstelle|créer|crear|poste|publier|publicar"
              + "|correo|courriel|montag|lundi|lunes)(?![\\p{L}])");

  /**
   * The prompt in the parser's English: rewritten when it reads more like German, French or Spanish
   * than English (so that an English "tag the contact" or "9am EST" stays as written).
   */
  public static String toEnglish(String prompt) {
    boolean foreign = count(OTHER_WORD, prompt) > count(ENGLISH_WORD, prompt);
    return rewrite(prompt, foreign);
  }

  private static long count(Pattern words, String text) {
    return words.matcher(text).results().count();
  }

  private static String rewrite(String prompt, boolean foreign) {
    List<String> kept = new ArrayList<>();
    Matcher keep = KEPT.matcher(prompt);
    StringBuilder masked = new StringBuilder();
    while (keep.find()) {
      kept.add(keep.group());
      keep.appendReplacement(masked, "\uE000" + (kept.size() - 1) + "\uE001");
    }
    keep.appendTail(masked);
    String text = masked.toString();
    if (foreign) {
      // the first "wenn" names the trigger, a later one a condition ("wenn das Budget ...")
      Matcher when = WHEN.matcher(text);
      StringBuilder conditions = new StringBuilder();
      boolean first = true;
      while (when.find()) {
        when.appendReplacement(conditions, first ? when.group() : "si");
        first = false;
      }
      when.appendTail(conditions);
      text =
          conditions
              .toString()
              .replaceAll("(?iu)lorsqu'", "lorsque ")
              .replaceAll("(?iu)dès qu'", "dès que ");
    }
    for (Rule rule : foreign ? RULES : ENGLISH_RULES) {
      text = rule.pattern().matcher(text).replaceAll(rule.english());
    }
    text = text.replaceAll("\\s{2,}", " ").replaceAll("\\s+([,;.:])", "$1").trim();
    Matcher placeholder = Pattern.compile("\uE000(\\d+)\uE001").matcher(text);
    StringBuilder restored = new StringBuilder();
    while (placeholder.find()) {
      placeholder.appendReplacement(
          restored, Matcher.quoteReplacement(kept.get(Integer.parseInt(placeholder.group(1)))));
    }
    placeholder.appendTail(restored);
    return restored.toString();
  }
}
