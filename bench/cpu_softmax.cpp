// Baseline of bench/cpu_softmax.mlir: a row softmax of a 4096x4096 f32
// matrix (maximum, exp, sum, divide per row), plain loops built with -O2,
// best of 3 runs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  const size_t n = 4096;
  std::vector<float> x(n * n), out(n * n);
  for (size_t r = 0; r < n; ++r)
    for (size_t c = 0; c < n; ++c)
      x[r * n + c] = float(c % 4) * 0.693147182f;
  double best = 1e30;
  for (int run = 0; run < 3; ++run) {
    auto t0 = std::chrono::steady_clock::now();
    for (size_t r = 0; r < n; ++r) {
      const float *row = &x[r * n];
      float *o = &out[r * n];
      float m = -INFINITY;
      for (size_t c = 0; c < n; ++c)
        m = std::max(m, row[c]);
      float s = 0.0f;
      for (size_t c = 0; c < n; ++c) {
        o[c] = std::exp(row[c] - m);
        s += o[c];
      }
      for (size_t c = 0; c < n; ++c)
        o[c] /= s;
    }
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  std::printf("check (expect 8): %g\nC++ -O2 seconds: %f\n",
              out[n * n - 1] * 15360.0f, best);
  return 0;
}
