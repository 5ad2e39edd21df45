// shfl_inactive.cu: what a shuffle returns when its source lane does not
// execute it (outside the branch, or past a partial warp's last thread):
// 0 on an H100 (shfl_inactive.expected, recorded there), which code relies
// on (cuda-samples' reduce7 sums such reads in a partial warp). Given that
// file as argv[1], compares its own output line by line.
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

static std::vector<std::string> out;
static char buf[4096];
static int pos;
#define say(...) (pos += snprintf(buf + pos, sizeof buf - pos, __VA_ARGS__))
static void endl() { out.push_back(buf); pos = 0; buf[0] = 0; }
__global__ void part(int *o, unsigned mask, int off) {   // partial warps: blockDim < 32
  int l = threadIdx.x;
  int v = 1000 + l;
  o[l] = __shfl_down_sync(mask, v, off);
}
__global__ void branch(int *o, int n, int off, int kind) {   // lanes >= n skip the branch
  int l = threadIdx.x;
  int v = 100 + l;            // every lane's register before the branch
  int r = -1;
  if (l < n) {
    int w = 1000 + l;         // a new value only the branch's lanes have
    unsigned m = (1u << n) - 1;
    if (kind == 0) r = __shfl_down_sync(m, w, off);
    else if (kind == 1) r = __shfl_down_sync(m, v, off);
    else if (kind == 2) r = __shfl_up_sync(m, w, off);
    else r = __shfl_xor_sync(m, w, off);
  }
  o[l] = r;
}
__global__ void red(float *o, int n) {  // the reduction sample's final warp (reduce7, float)
  int l = threadIdx.x;
  float s = 1.0f + l;   // a partial sum in every lane
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffff, s, off);
  float t = s;
  unsigned b = __ballot_sync(0xffffffff, l < n);
  if (l < n) {
    t = 10.0f * (l + 1);
    for (int off = 16; off > 0; off /= 2) t += __shfl_down_sync(b, t, off);
  }
  if (l == 0) o[0] = t;
}
int main(int argc, char **argv) {
  int *d; cudaMallocManaged(&d, 64 * sizeof(int));
  for (int bs : {1, 8, 20}) for (int off : {1, 4, 16}) {
    for (int i = 0; i < 64; i++) d[i] = -7;
    part<<<1, bs>>>(d, bs >= 32 ? ~0u : (1u << bs) - 1, off); cudaDeviceSynchronize();
    say("part bs=%d off=%d:", bs, off); for (int i = 0; i < bs; i++) say(" %d", d[i]); endl();
  }
  for (int kind = 0; kind < 4; kind++) for (int n : {8, 20}) for (int off : {1, 4, 16}) {
    branch<<<1, 32>>>(d, n, off, kind); cudaDeviceSynchronize();
    say("branch kind=%d n=%d off=%d:", kind, n, off); for (int i = 0; i < n; i++) say(" %d", d[i]); endl();
  }
  float *f; cudaMallocManaged(&f, 4);
  for (int n : {1, 4, 8}) { red<<<1, 32>>>(f, n); cudaDeviceSynchronize(); say("red n=%d: %g (sum of own: %g)", n, f[0], 10.0f * n * (n + 1) / 2); endl(); }
  say("err %s", cudaGetErrorString(cudaGetLastError()));
  endl();
  if (argc < 2) {
    for (auto &l : out) printf("%s\n", l.c_str());
    return 0;
  }
  FILE *fp = fopen(argv[1], "r");
  if (!fp) { printf("cannot open %s\nFAIL\n", argv[1]); return 1; }
  char line[8192];
  size_t k = 0;
  int bad = 0;
  while (fgets(line, sizeof line, fp)) {
    line[strcspn(line, "\n")] = 0;
    if (line[0] == '#') continue;
    if (k >= out.size() || out[k] != line)
      if (bad++ < 10) printf("line %zu differs:\n  got:  %s\n  want: %s\n", k + 1, k < out.size() ? out[k].c_str() : "(none)", line);
    k++;
  }
  fclose(fp);
  if (k != out.size()) { printf("%zu lines, want %zu\n", out.size(), k); bad++; }
  printf("%zu lines compared, %d differ\n%s\n", k, bad, bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
