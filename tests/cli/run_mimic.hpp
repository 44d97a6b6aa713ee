// End-to-end helpers: run the built `mimic` (MIMIC_BINARY) with arguments in a folder of its own and
// collect its exit code, stdout and stderr; a temporary folder per test case (ctest runs the test cases
// of every executable in parallel, each in its own process, and a test binary run by hand runs them all in
// one process: the folder name carries both the process id and the test's name).
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "support/shared_data.hpp"
#include "support/temp_path.hpp"

namespace mimic::test {

inline std::filesystem::path mimic_binary() { return MIMIC_BINARY; }

struct RunResult {
  int exit_code = -1;  // the process's exit status; 128 + N when killed by signal N
  bool signaled = false;
  std::string out, err;
  std::string command;  // for failure messages

  // Everything needed to understand a failed assertion.
  std::string describe() const {
    return "command: " + command + "\nexit code: " + std::to_string(exit_code) + "\n--- stdout ---\n" + out +
           "--- stderr ---\n" + err;
  }
};

// Runs `mimic args...` with the working directory `cwd` (the test's own folder; the current one when
// empty). stdin is /dev/null; stdout and stderr are captured separately.
inline RunResult run_mimic(const std::vector<std::string>& args, const std::filesystem::path& cwd = {}) {
  RunResult result;
  std::vector<std::string> argv_text = {mimic_binary().string()};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  for (const auto& a : argv_text) result.command += (result.command.empty() ? "" : " ") + a;
  if (!cwd.empty()) result.command = "(cd " + cwd.string() + " && " + result.command + ")";

  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) {
    ADD_FAILURE() << "pipe: " << std::strerror(errno);
    return result;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    ::close(err_pipe[0]);
    ::close(err_pipe[1]);
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  // Read both pipes as they fill: reading one to its end first could block the child on the other.
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_count;
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signaled = true;
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

// A fresh folder for one test case, removed at the end unless the test failed (then kept for a look)
// or MIMIC_KEEP_TEST_FILES=1.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string stem = "cli";
    if (info) stem += std::string("_") + info->test_suite_name() + "_" + info->name();
    for (char& c : stem)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
    path_ = unique_temp_path(stem);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    const char* keep = std::getenv("MIMIC_KEEP_TEST_FILES");
    const bool failed = ::testing::Test::HasFailure();
    if (failed || (keep && std::string(keep) == "1")) {
      std::cerr << "test files kept in " << path_ << "\n";
      return;
    }
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& relative) const { return path_ / relative; }

 private:
  std::filesystem::path path_;
};

// Names of the entries of `dir` (not recursive), sorted; empty when it does not exist.
inline std::vector<std::string> list_dir(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

inline std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

// Lines of `text` that are not empty.
inline std::vector<std::string> nonempty_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// The single error line of a run with -q (spdlog's "[error] ..."), or a failure.
inline std::string single_error_line(const RunResult& r) {
  const auto lines = nonempty_lines(r.err);
  EXPECT_EQ(lines.size(), 1u) << "one error line expected\n" << r.describe();
  if (lines.empty()) return "";
  EXPECT_EQ(lines[0].rfind("[error] ", 0), 0u) << r.describe();
  return lines[0];
}

// spdlog's lines at info level ("[info] ...") in a captured stderr.
inline int count_info_lines(const std::string& err) {
  int n = 0;
  for (const auto& line : nonempty_lines(err))
    if (line.rfind("[info]", 0) == 0) ++n;
  return n;
}

inline std::filesystem::path sample(const std::string& relative) { return source_dir() / relative; }

}  // namespace mimic::test
