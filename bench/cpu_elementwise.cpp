// Baseline of bench/cpu_elementwise.mlir: out = a * 2 + b over 2^24 floats,
// a plain loop built with -O2, best of 5 runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  const size_t n = size_t(1) << 24;
  std::vector<float> a(n, 1.0f), b(n, 3.0f), out(n);
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < n; ++i)
      out[i] = a[i] * 2.0f + b[i];
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  std::printf("check (expect 5): %g\nC++ -O2 seconds: %f\n", out[n - 1], best);
  return 0;
}
