// Whole-file text reading with the error wording every reader shares.
#pragma once

#include <string>

namespace mimic::core {

// Reads the whole file (bytes as they are, no newline translation); a missing, unreadable or directory
// path is an InputError "file: ...".
std::string read_text_file(const std::string& file);

}  // namespace mimic::core
