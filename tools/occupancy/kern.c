/* kern.c: the kernels of a program as cucc compiles them. Each .cu is
 * compiled (-c) with the user's cucc options into a scratch folder with
 * --keep-dir, and each kernel's descriptor in the device C is read: the
 * cu_kernel the runtime itself gets (cucc_rt.h), so these numbers are the
 * ones cudaOccupancy* and CUCC_REPORT use in the running program. (ptxas's
 * -v lines, which `cucc -Xptxas -v` prints, name neither __launch_bounds__
 * nor where a kernel is.) */
#include "occ.h"
#include <dirent.h>
#include <errno.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* cucc beside this program (build tree and install prefix alike), else PATH */
static char *find_cucc(const char *self) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) {
    if (!strchr(self, '/')) return strdup("cucc");
    snprintf(buf, sizeof buf, "%s", self);
    n = (ssize_t)strlen(buf);
  }
  buf[n] = 0;
  char *slash = strrchr(buf, '/');
  if (slash) {
    snprintf(slash + 1, sizeof buf - (size_t)(slash + 1 - buf), "cucc");
    if (access(buf, X_OK) == 0) return strdup(buf);
  }
  return strdup("cucc");
}

static int run(char **argv) {
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
  if (rc) {
    fprintf(stderr, "cucc-occupancy: cannot run %s: %s\n", argv[0], strerror(rc));
    return -1;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void rm_dir(const char *d) {
  DIR *dir = opendir(d);
  if (!dir) return;
  struct dirent *e;
  char p[8400];
  while ((e = readdir(dir)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(p, sizeof p, "%s/%s", d, e->d_name);
      unlink(p);
    }
  closedir(dir);
  rmdir(d);
}

/* `  .field = value,` -> value, without quotes for a string */
static char *field(const char *line, const char *name) {
  const char *s = line;
  while (*s == ' ') s++;
  size_t n = strlen(name);
  if (*s != '.' || strncmp(s + 1, name, n) || strncmp(s + 1 + n, " = ", 3)) return NULL;
  s += n + 4;
  char *v = strdup(*s == '"' ? s + 1 : s);
  char *e = v + strlen(v);
  while (e > v && (e[-1] == '\n' || e[-1] == ',' || e[-1] == '"')) *--e = 0;
  return v;
}

/* Every cu_kernel descriptor of one device C file; the -arch it was
 * compiled for from its cu_set_arch(). */
static void read_dev(const char *path, OcKern **ks, int *n, int *arch) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[8192];
  OcKern *k = NULL;
  while (fgets(line, sizeof line, f)) {
    char *v;
    if (strstr(line, "static const cu_kernel ") == line) {
      *ks = realloc(*ks, (*n + 1) * sizeof **ks);
      k = &(*ks)[(*n)++];
      memset(k, 0, sizeof *k);
    } else if (k && !strcmp(line, "};\n")) k = NULL;
    else if (k && (v = field(line, "pretty"))) k->name = v;
    else if (k && (v = field(line, "file"))) k->file = v;
    else if (k && (v = field(line, "line"))) k->line = atoi(v), free(v);
    else if (k && (v = field(line, "nregs"))) k->nregs = atoi(v), free(v);
    else if (k && (v = field(line, "max_threads"))) k->max_threads = atoi(v), free(v);
    else if (k && (v = field(line, "smem_static"))) k->smem_static = (size_t)atoll(v), free(v);
    else if ((v = strstr(line, "cu_set_arch("))) *arch = atoi(v + 12);
  }
  fclose(f);
}

int oc_kernels(const char *self, char **cucc_args, int nargs, char **srcs, int nsrcs, OcKern **out, int *n,
               int *arch) {
  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/cucc-occ-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    fprintf(stderr, "cucc-occupancy: cannot make a scratch folder: %s\n", strerror(errno));
    return 1;
  }
  char *cucc = find_cucc(self);
  int rc = 0;
  *out = NULL;
  *n = 0;
  for (int s = 0; s < nsrcs && !rc; s++) {
    char obj[4200];
    snprintf(obj, sizeof obj, "%s/k%d.o", dir, s);
    char **argv = calloc((size_t)nargs + 10, sizeof *argv);
    int a = 0;
    argv[a++] = cucc;
    for (int i = 0; i < nargs; i++) argv[a++] = cucc_args[i];
    argv[a++] = "-c";
    argv[a++] = srcs[s];
    argv[a++] = "-o";
    argv[a++] = obj;
    argv[a++] = "--keep-dir";
    argv[a++] = dir;
    int r = run(argv);
    free(argv);
    if (r) {
      fprintf(stderr, "cucc-occupancy: cucc could not compile %s\n", srcs[s]);
      rc = 1;
      break;
    }
    /* the device C it left (named after the source); read, then removed
     * so that the next source's stands alone */
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      size_t l = strlen(e->d_name);
      char p[8400];
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      if (l > 6 && !strcmp(e->d_name + l - 6, ".dev.c")) read_dev(p, out, n, arch);
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlink(p);
    }
    if (d) closedir(d);
  }
  rm_dir(dir);
  free(cucc);
  return rc;
}
