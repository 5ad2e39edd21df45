// profile_summary.cu: CUCC_PROFILE=summary,csv=FILE, nsys --stats's tables.
// The program runs itself as a child under CUCC_PROFILE (the tables are
// written when the child exits), then reads the child's CSV and checks every
// count and byte total against what the child did. tests/check/CMakeLists.txt
// matches the printed tables; template kernels carry their arguments.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace ops {
template <class T, int N> __global__ void scale(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= (T)N;
}
}
template <char C> __global__ void mark(char *s) { s[threadIdx.x] = C; }

enum { N = 1000 };

static int child() {
  float *d, *d2, h[N];
  char *s;
  for (int i = 0; i < N; i++) h[i] = 1;
  cudaMalloc(&d, N * sizeof(float));
  cudaMalloc(&d2, N * sizeof(float));
  cudaMalloc(&s, 32);
  cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);          // H2D 4000
  cudaMemcpy(d2, h, 1000, cudaMemcpyDefault);                            // H2D 1000 (by the pointers)
  for (int r = 0; r < 3; r++) ops::scale<float, 16><<<(N + 255) / 256, 256>>>(d, N);
  ops::scale<int, 4><<<1, 32>>>((int *)d2, 8);
  mark<'x'><<<1, 32>>>(s);
  cudaMemset(d2, 0, 400);                                                 // memset 400
  cudaMemcpyPeer(d2, 0, d, 0, 800);                                       // D2D 800, one API call
  cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);          // D2H 4000
  cudaDeviceSynchronize();
  char m[32];
  cudaMemcpy(m, s, 32, cudaMemcpyDefault);                                // D2H 32 (by the pointers)
  cudaFree(d);
  cudaFree(d2);
  cudaFree(s);
  return h[0] == 4096 && m[31] == 'x' ? 0 : 1;
}

// one CSV row: table, name, count, total_ns, ..., total_bytes (column 11)
struct Row { char table[16], name[256]; long long count, total_ns, bytes; double pct; };
static Row rows[64];
static int nrows;

static void parse(char *line) {
  char *f[16];
  int n = 0;
  for (char *p = line; n < 16;) {
    if (*p == '"') {   // a quoted name: "" is a quote
      char *w = ++p, *o = p;
      for (; *p && !(*p == '"' && p[1] != '"'); p++) *o++ = *p == '"' ? *++p : *p;
      p += *p == '"';
      *o = 0;   // (o may be where the closing quote was)
      f[n++] = w;
    } else {
      f[n++] = p;
      p += strcspn(p, ",\n");
    }
    if (*p != ',') {
      *p = 0;
      break;
    }
    *p++ = 0;
  }
  if (n < 11 || nrows == 64) return;
  Row *r = &rows[nrows++];
  snprintf(r->table, sizeof r->table, "%s", f[0]);
  snprintf(r->name, sizeof r->name, "%s", f[1]);
  r->count = atoll(f[2]);
  r->total_ns = atoll(f[3]);
  r->pct = atof(f[9]);
  r->bytes = atoll(f[10]);
}

static const Row *find(const char *table, const char *name) {
  for (int i = 0; i < nrows; i++)
    if (!strcmp(rows[i].table, table) && !strcmp(rows[i].name, name)) return &rows[i];
  return NULL;
}

static int bad;
static void want(const char *table, const char *name, long long count, long long bytes) {
  const Row *r = find(table, name);
  if (!r) {
    printf("no %s row '%s'\n", table, name);
    bad = 1;
  } else if (r->count != count || (bytes >= 0 && r->bytes != bytes) || r->total_ns <= 0) {
    printf("%s '%s': count %lld bytes %lld time %lld, want count %lld bytes %lld\n", table, name, r->count,
           r->bytes, r->total_ns, count, bytes);
    bad = 1;
  } else
    printf("%s %s: %lld, %lld bytes\n", table, name, r->count, r->bytes);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child")) return child();
  char csv[] = "/tmp/cucc-prof-XXXXXX";
  int fd = mkstemp(csv);
  if (fd < 0) return 1;
  close(fd);
  char env[128];
  snprintf(env, sizeof env, "CUCC_PROFILE=summary,csv=%s", csv);
  int ne = 0;
  while (environ[ne]) ne++;
  char **envp = (char **)calloc(ne + 2, sizeof *envp);
  int k = 0;
  for (int i = 0; i < ne; i++)
    if (strncmp(environ[i], "CUCC_PROFILE=", 13)) envp[k++] = environ[i];
  envp[k] = env;
  char self[4096];
  ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
  if (l <= 0) return 1;
  self[l] = 0;
  char *cargv[] = {self, (char *)"child", NULL};
  pid_t pid;
  int st;
  if (posix_spawn(&pid, self, NULL, NULL, cargv, envp) || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
      WEXITSTATUS(st)) {
    printf("the profiled child failed\nFAIL\n");
    return 1;
  }
  FILE *f = fopen(csv, "r");
  char line[1024];
  if (!f || !fgets(line, sizeof line, f) || strncmp(line, "table,name,count,total_ns,avg_ns,med_ns,", 40)) {
    printf("no CSV header in %s\nFAIL\n", csv);
    return 1;
  }
  while (fgets(line, sizeof line, f)) parse(line);
  fclose(f);
  unlink(csv);

  want("kernel", "ops::scale<float, 16>(float *, int)", 3, -1);
  want("kernel", "ops::scale<int, 4>(int *, int)", 1, -1);
  want("kernel", "mark<'x'>(char *)", 1, -1);
  want("api", "cudaLaunchKernel", 5, -1);
  want("api", "cudaMalloc", 3, -1);
  want("api", "cudaFree", 3, -1);
  want("api", "cudaMemcpy", 4, -1);       // cudaMemcpyPeer's own cudaMemcpy is not a call of the program
  want("api", "cudaMemcpyPeer", 1, -1);
  want("api", "cudaMemset", 1, -1);
  want("api", "cudaDeviceSynchronize", 1, -1);
  want("memop", "[CUDA memcpy Host-to-Device]", 2, 5000);
  want("memop", "[CUDA memcpy Device-to-Host]", 2, 4032);
  want("memop", "[CUDA memcpy Device-to-Device]", 1, 800);
  want("memop", "[CUDA memset]", 1, 400);
  double kp = 0;
  for (int i = 0; i < nrows; i++)
    if (!strcmp(rows[i].table, "kernel")) kp += rows[i].pct;
  if (kp < 99.5 || kp > 100.5) {
    printf("kernel shares add up to %.1f%%\n", kp);
    bad = 1;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
