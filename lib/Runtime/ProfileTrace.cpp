//===- ProfileTrace.cpp - The in-kernel profiler's traces on the host -----===//
//
// The host half of the profiler (--mgpu-profile-kernels): the clock the
// host backends record with, and the write-out of a launch's traces as a
// Chrome trace event file (ui.perfetto.dev, chrome://tracing), one file per
// launch, `<dir>/<kernel>-<n>.json` with n counting the launches of that
// kernel in this process. The layout follows JAX's profiler
// (jax/experimental/mosaic/gpu/profiler.py, ProfilerSpec.dump): "B"/"E"
// events in microseconds, one thread (tid) per Pallas thread, scopes left
// open by a full trace closed at its last event. The file is written
// whole under a temporary name and renamed, so a failed write leaves none.
//
//===----------------------------------------------------------------------===//

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#define MGPU_PROFILE_EXPORT __attribute__((visibility("default")))

namespace {

[[noreturn]] void fail(const std::string &what, const std::string &why) {
  std::fprintf(stderr, "mgpu: cannot write the profile trace %s: %s\n",
               what.c_str(), why.c_str());
  std::exit(1);
}

/// `text` as the body of a JSON string.
std::string escape(const std::string &text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
      out += buffer;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

/// The n of the next trace file of `kernel`.
int nextLaunch(const std::string &kernel) {
  static std::mutex mutex;
  static std::map<std::string, int> launches;
  std::lock_guard<std::mutex> lock(mutex);
  return launches[kernel]++;
}

} // namespace

extern "C" {

/// Nanoseconds of the host's steady clock: mgpu.global_timer on the host
/// backends.
MGPU_PROFILE_EXPORT int64_t mgpuHostClockNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Writes the `traces` traces at `buffer` (each the event count, then
/// `capacity` (tag, time) pairs; `warpgroups` traces per CTA, 0 when the
/// CTAs differ: an mpmd_map's regions) as a trace
/// file of `kernel` in `dir`. `names` holds `namesSize` bytes: the scope
/// names, each NUL-terminated, indexed by scope id.
MGPU_PROFILE_EXPORT void mgpuWriteProfile(int64_t buffer, int64_t traces,
                                          int64_t warpgroups, int64_t capacity,
                                          const char *names, int64_t namesSize,
                                          const char *dir, const char *kernel) {
  const auto *words = reinterpret_cast<const int64_t *>(buffer);
  std::vector<std::string> scopes;
  for (int64_t at = 0; at < namesSize;) {
    scopes.emplace_back(names + at);
    at += scopes.back().size() + 1;
  }
  const int64_t stride = 1 + 2 * capacity;
  const int64_t endBit = int64_t(1) << 31;

  // Times are relative to the launch's first event.
  int64_t origin = INT64_MAX;
  for (int64_t t = 0; t < traces; ++t) {
    const int64_t *trace = words + t * stride;
    int64_t count = std::min(std::max<int64_t>(trace[0], 0), capacity);
    for (int64_t e = 0; e < count; ++e)
      origin = std::min(origin, trace[2 + 2 * e]);
  }

  std::string json = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [";
  bool first = true;
  auto event = [&](const std::string &name, const char *phase, int64_t tid,
                   int64_t time) {
    char stamp[64];
    std::snprintf(stamp, sizeof(stamp), "%.3f", double(time - origin) / 1e3);
    json += first ? "\n" : ",\n";
    first = false;
    json += "  {\"name\": \"" + escape(name) + "\", \"ph\": \"" + phase +
            "\", \"ts\": " + stamp +
            ", \"pid\": 1, \"tid\": " + std::to_string(tid) + "}";
  };
  for (int64_t t = 0; t < traces; ++t) {
    const int64_t *trace = words + t * stride;
    int64_t count = std::min(std::max<int64_t>(trace[0], 0), capacity);
    int64_t tid = t + 1;
    json += first ? "\n" : ",\n";
    first = false;
    std::string thread =
        warpgroups > 0 ? "CTA " + std::to_string(t / warpgroups) +
                             " warpgroup " + std::to_string(t % warpgroups)
                       : "Pallas thread " + std::to_string(t);
    json += "  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, "
            "\"tid\": " +
            std::to_string(tid) + ", \"args\": {\"name\": \"" + thread + "\"}}";
    std::vector<std::string> open;
    int64_t last = origin;
    for (int64_t e = 0; e < count; ++e) {
      int64_t tag = trace[1 + 2 * e], time = trace[2 + 2 * e];
      bool end = tag & endBit;
      int64_t id = tag & ~endBit;
      std::string name = id >= 0 && id < int64_t(scopes.size())
                             ? scopes[id]
                             : "scope " + std::to_string(id);
      last = time;
      if (!end) {
        open.push_back(name);
        event(name, "B", tid, time);
      } else if (!open.empty()) {
        open.pop_back();
        event(name, "E", tid, time);
      }
    }
    // A full trace drops the rest: close what it left open.
    while (!open.empty()) {
      event(open.back(), "E", tid, last);
      open.pop_back();
    }
  }
  json += "\n]}\n";

  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    fail("directory '" + std::string(dir) + "'", error.message());
  std::string path = std::string(dir) + "/" + kernel + "-" +
                     std::to_string(nextLaunch(kernel)) + ".json";
  std::string temporary = path + ".tmp";
  std::FILE *file = std::fopen(temporary.c_str(), "w");
  if (!file)
    fail("'" + path + "'", std::strerror(errno));
  bool written = std::fwrite(json.data(), 1, json.size(), file) == json.size();
  int saved = errno;
  if (std::fclose(file) != 0 && written) {
    written = false;
    saved = errno;
  }
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    if (written)
      saved = errno;
    std::remove(temporary.c_str());
    fail("'" + path + "'", std::strerror(saved));
  }
}

} // extern "C"
