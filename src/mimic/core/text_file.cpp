#include "mimic/core/text_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "mimic/core/error.hpp"

namespace mimic::core {

std::string_view without_utf8_bom(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.starts_with(kBom)) text.remove_prefix(kBom.size());
  return text;
}

std::string escaped_for_message(std::string_view text, std::size_t max_length) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : text.substr(0, max_length)) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t') || byte == 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  if (text.size() > max_length) out += "...";
  return out;
}

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
  std::string content = std::move(text).str();
  // A UTF-16 file (what some Windows editors save) would otherwise be read as bytes and fail much later
  // with a message quoting garbage.
  if (content.starts_with("\xFF\xFE") || content.starts_with("\xFE\xFF")) {
    throw InputError(input_error_message(file, "",
                                         "is UTF-16 text (it starts with a UTF-16 byte-order mark); expected "
                                         "UTF-8 or ASCII (convert it, e.g. iconv -f UTF-16 -t UTF-8)"));
  }
  if (without_utf8_bom(content).size() != content.size()) content.erase(0, 3);
  return content;
}

}  // namespace mimic::core
