#include "mimic/core/text_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "mimic/core/error.hpp"

namespace mimic::core {

std::string read_text_file(const std::string& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    throw InputError(input_error_message(file, "", "is a directory, expected a file"));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(input_error_message(file, "", "cannot open the file (does it exist?)"));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(input_error_message(file, "", "read error"));
  return std::move(text).str();
}

}  // namespace mimic::core
