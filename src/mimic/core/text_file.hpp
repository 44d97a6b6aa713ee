// Whole-file text reading with the error wording every reader shares.
#pragma once

#include <string>
#include <string_view>

namespace mimic::core {

// Reads the whole file (bytes as they are, no newline translation, but without a leading UTF-8
// byte-order mark); a missing, unreadable or directory path is an InputError "file: ...".
std::string read_text_file(const std::string& file);

// `text` without a leading UTF-8 byte-order mark (EF BB BF). Editors on Windows (Notepad, some exporters)
// write one at the start of plain text files; it is no content, and every text reader drops it here so
// that the first keyword or number is recognised ("HIERARCHY", "job:", "0.0 ...").
std::string_view without_utf8_bom(std::string_view text);

// `text` for a one-line message: control bytes (below 0x20 but the tab, and 0x7f) as \xNN, everything else as
// it is, so that a label or a name read from a binary file never breaks a message over lines or sends a
// terminal escape sequence. At most `max_length` bytes of `text` are shown, then "...".
std::string escaped_for_message(std::string_view text, std::size_t max_length = 80);

}  // namespace mimic::core
