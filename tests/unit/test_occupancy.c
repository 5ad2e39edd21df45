/* test_occupancy.c: the device models and NVIDIA's occupancy rules.
 *  - every row recorded on a real H100 (tests/data/h100_occupancy.txt):
 *    the real kernel's numRegs and shared memory go into our calculator,
 *    which must give the H100's blocks per SM and potential block size;
 *  - the lecture notes' worked examples (G80, cc 1.2, the register cliff);
 *  - CUCC_DEVICE-style overrides.
 * argv[1]: the data file. */
#include "rt.h"

static int npass, nfail;

static void eq(const char *what, long got, long want) {
  if (got == want) { npass++; return; }
  nfail++;
  printf("FAIL %s: got %ld, want %ld\n", what, got, want);
}

static const rt_model *model(int sm) { return rt_model_find(sm); }

static void h100_rows(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) { printf("FAIL cannot open %s\n", path); nfail++; return; }
  char line[1024];
  int rows = 0;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "OCC ", 4)) continue;
    char name[64];
    int regs;
    size_t smem;
    if (sscanf(line, "OCC %63s regs=%d smem=%zu", name, &regs, &smem) != 3) continue;
    size_t dyn = strstr(name, "dyn20k") ? 20000 : 0;
    const rt_model *m = model(90);
    for (char *p = strstr(line, "smem=") + 5; (p = strchr(p, ' ')) != NULL; p++) {
      int bs, n;
      if (sscanf(p, " %d:%d", &bs, &n) == 2) {
        char what[128];
        snprintf(what, sizeof what, "H100 %s block %d", name, bs);
        eq(what, rt_occupancy(m, bs, regs, smem + dyn, NULL), n);
      }
    }
    int g, b, wg, wb;
    char *pp = strstr(line, "potential=");
    if (pp && sscanf(pp, "potential=%d,%d", &wg, &wb) == 2) {
      rt_potential(m, regs, smem, NULL, NULL, dyn, 0, &g, &b);
      char what[128];
      snprintf(what, sizeof what, "H100 %s potential block", name);
      eq(what, b, wb);
      snprintf(what, sizeof what, "H100 %s potential grid", name);
      eq(what, g, wg);
    }
    rows++;
  }
  fclose(f);
  eq("H100 rows read", rows, 11);
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: test_occupancy DATAFILE\n"); return 2; }
  h100_rows(argv[1]);

  /* a model for every compute capability the notes tabulate, and modern ones */
  int sms[] = {10, 11, 12, 13, 20, 21, 30, 35, 37, 50, 52, 53, 60, 61, 70, 75, 80, 86, 89, 90};
  for (size_t i = 0; i < sizeof sms / sizeof *sms; i++) eq("model exists", model(sms[i]) != NULL, 1);
  eq("8800 GTX SMs", model(10)->sms, 16);
  eq("RTX 2070 SMs", model(75)->sms, 36);
  eq("A100 SMs", model(80)->sms, 108);
  eq("H100 SMs", model(90)->sms, 132);

  /* cc 1.2: 2048 threads as 16x16 blocks: 4 blocks per SM (thread limit), 2 SMs */
  rt_occ o;
  eq("cc1.2 16x16 blocks/SM", rt_occupancy(model(12), 256, 10, 0, &o), 4);
  eq("cc1.2 16x16 SMs needed", (2048 / 256 + 3) / 4, 2);
  /* 8x8 blocks: capped at 8 blocks per SM, 4 SMs */
  eq("cc1.2 8x8 blocks/SM", rt_occupancy(model(12), 64, 10, 0, &o), 8);
  eq("cc1.2 8x8 limiter is blocks", strcmp(o.limiter, "blocks"), 0);
  eq("cc1.2 8x8 SMs needed", (2048 / 64 + 7) / 8, 4);
  /* G80: 100 blocks of 64 threads on 16 SMs all resident at once */
  int g80 = rt_occupancy(model(10), 64, 10, 0, NULL);
  eq("G80 64-thread blocks/SM", g80, 8);
  eq("G80 100 blocks resident at once", 100 <= g80 * model(10)->sms, 1);
  /* the register cliff: 16384 registers, 1536 threads, 256-thread blocks */
  rt_model cliff;
  eq("override parses", rt_model_parse("sm_20:regsPerSM=16384", 75, &cliff), 0);
  eq("override applied", cliff.regs_sm, 16384);
  eq("cliff: 10 registers", rt_occupancy(&cliff, 256, 10, 0, NULL), 6);
  eq("cliff: 11 registers", rt_occupancy(&cliff, 256, 11, 0, NULL), 5);
  eq("cliff: 12 registers", rt_occupancy(&cliff, 256, 12, 0, &o), 5);
  eq("cliff: limited by registers", strcmp(o.limiter, "registers"), 0);
  /* the H100 example: 16 KiB static shared memory */
  eq("H100 16KiB smem, 128 threads", rt_occupancy(model(90), 128, 32, 16384, NULL), 13);
  eq("H100 16KiB smem, 1024 threads", rt_occupancy(model(90), 1024, 32, 16384, NULL), 2);
  /* blocks that can never fit */
  eq("too many threads", rt_occupancy(model(75), 2048, 16, 0, NULL), 0);
  eq("too many registers", rt_occupancy(model(90), 1024, 128, 0, &o), 0);
  eq("too much shared memory", rt_occupancy(model(75), 32, 16, 70000, NULL), 0);
  rt_model bad;
  eq("unknown field refused", rt_model_parse("sm_75:nonsense=3", 75, &bad) != 0, 1);
  eq("unknown model refused", rt_model_parse("sm_99", 75, &bad) != 0, 1);

  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
