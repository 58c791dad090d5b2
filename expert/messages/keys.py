"""The chat's key bar and key panel (`key.*`), its file errors (`chat.file.*`) and the `/set`
refusals of a value the setup schema rejects (`chat.set.invalid.*`).

Kept apart from `chat.py` so each table stays short; registered in `expert.messages`.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # descriptions of key bindings: the footer and the command palette's "Keys" panel show them
    "key.focus_prompt": ("Prompt", "Eingabe"),
    "key.scroll_up": ("Scroll up", "Nach oben blättern"),
    "key.scroll_down": ("Scroll down", "Nach unten blättern"),
    "key.help": ("Help", "Hilfe"),
    "key.close": ("Close", "Schliessen"),
    "key.resume": ("Resume", "Fortsetzen"),
    "key.start_fresh": ("Start fresh", "Neu beginnen"),
    "key.toggle_card": ("Open/close", "Öffnen/schliessen"),
    "key.focus_next": ("Focus next", "Nächstes Element"),
    "key.focus_previous": ("Focus previous", "Vorheriges Element"),
    "key.quit": ("Quit", "Beenden"),
    "key.palette": ("palette", "Palette"),   # short: the footer shows it on the right
    # Textual's own commands in the command palette (tui.app.TEXTUAL_COMMANDS)
    "chat.palette.textual.theme": ("Theme", "Farbschema"),
    "chat.palette.textual.theme.help": ("Change the colour theme", "Das Farbschema wechseln"),
    "chat.palette.textual.quit": ("Quit", "Beenden"),
    "chat.palette.textual.quit.help": ("Quit the chat (the answers are autosaved)",
                                       "Den Chat beenden (die Antworten sind automatisch gespeichert)"),
    "chat.palette.textual.keys": ("Keys", "Tasten"),
    "chat.palette.textual.keys.help": ("Show or hide the keys panel", "Die Tastenübersicht ein- oder ausblenden"),
    "chat.palette.textual.maximize": ("Maximize", "Maximieren"),
    "chat.palette.textual.maximize.help": ("Maximize the focused widget", "Das fokussierte Element maximieren"),
    "chat.palette.textual.minimize": ("Minimize", "Verkleinern"),
    "chat.palette.textual.minimize.help": ("Restore the normal size", "Die normale Grösse wiederherstellen"),
    "chat.palette.textual.screenshot": ("Screenshot", "Bildschirmfoto"),
    "chat.palette.textual.screenshot.help": ("Save an SVG screenshot of the screen",
                                             "Ein SVG-Bildschirmfoto des Bildschirms speichern"),
    "chat.help.keyname.card_enter": ("Enter (card)", "Enter (Karte)"),
    # a workload or setup file the chat cannot use
    "chat.file.not_found": ("{path}: file not found", "{path}: Datei nicht gefunden"),
    "chat.file.missing": ("file not found", "Datei nicht gefunden"),
    "chat.file.directory": ("is a folder, not a file", "ist ein Ordner, keine Datei"),
    "chat.file.not_a_mapping": ("top level must be a mapping (field: value lines)",
                                "oberste Ebene muss eine Zuordnung sein (Zeilen Feld: Wert)"),
    # `/set FIELD VALUE`: the workload or setup schema refuses the value
    "chat.set.invalid.choice": ("{field}: {value} is not allowed; allowed: {allowed}",
                                "{field}: {value} ist nicht erlaubt; erlaubt: {allowed}"),
    "chat.set.invalid.range": ("{field}: {value} is out of range; allowed: {allowed}",
                               "{field}: {value} liegt ausserhalb des Bereichs; erlaubt: {allowed}"),
    "chat.set.invalid.number": ("{field}: {value} is not a number; allowed: {allowed}",
                                "{field}: {value} ist keine Zahl; erlaubt: {allowed}"),
    "chat.set.invalid.integer": ("{field}: {value} is not a whole number; allowed: {allowed}",
                                 "{field}: {value} ist keine ganze Zahl; erlaubt: {allowed}"),
    "chat.set.invalid.text": ("{field}: {value} is not text", "{field}: {value} ist kein Text"),
    "chat.set.invalid.bool": ("{field}: {value} is not yes or no (true/false)",
                              "{field}: {value} ist nicht ja oder nein (true/false)"),
    "chat.set.invalid.section": ("{field}: {value} is not a section of fields (field: value)",
                                 "{field}: {value} ist kein Abschnitt mit Feldern (Feld: Wert)"),
    "chat.set.invalid.other": ("{field}: {value} is not allowed ({detail})",
                               "{field}: {value} ist nicht erlaubt ({detail})"),
    "chat.set.range.any_number": ("any number", "jede Zahl"),
    "chat.set.range.any_integer": ("any whole number", "jede ganze Zahl"),
    "chat.set.range.min": ("at least {min}", "mindestens {min}"),
    "chat.set.range.max": ("at most {max}", "höchstens {max}"),
    "chat.set.range.between": ("{min} to {max}", "{min} bis {max}"),
    "chat.set.range.above": ("more than {min}", "mehr als {min}"),
    "chat.set.range.below": ("less than {max}", "weniger als {max}"),
}
"""Key → (English, German)."""
