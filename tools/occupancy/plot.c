/* plot.c: the occupancy calculator's three graphs (warps per SM as the
 * block size, the registers per thread and the shared memory per block
 * vary, the chosen configuration marked), one row per kernel, as an SVG a
 * browser shows; a .png goes through a converter if one is installed
 * (rsvg-convert, Debian's librsvg2-bin, or ImageMagick), none is needed. */
#include "occ.h"
#include <errno.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { PW = 420, PH = 300, ML = 64, MR = 46, MT = 34, MB = 52, TOP = 44 };   /* panel and margins, px */

static void esc(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '&') fputs("&amp;", f);
    else if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '"') fputs("&quot;", f);
    else fputc(*s, f);
  }
}

/* a tick step: the power of two that gives at most 8 ticks (block sizes,
 * registers and shared memory all come in powers of two) */
static long tick(long span) {
  long s = 1;
  while (span / s > 8) s *= 2;
  return s;
}

static void xlabel(char *b, size_t n, int what, long x) {
  if (what == OC_SMEM && x >= 1024 && x % 1024 == 0) snprintf(b, n, "%ldK", x / 1024);
  else snprintf(b, n, "%ld", x);
}

static void panel(FILE *f, const OcCase *k, int what, double ox, double oy) {
  static const char *titles[] = {"Varying block size", "Varying registers per thread",
                                 "Varying shared memory per block"};
  static const char *xnames[] = {"threads per block", "registers per thread", "shared memory per block (bytes)"};
  const OcGraph *g = &k->g[what];
  double w = PW - ML - MR, h = PH - MT - MB, x0 = ox + ML, y0 = oy + MT + h;
  long xmax = g->xmax > 0 ? g->xmax : 1;
  int ymax = k->r.max_warps > 0 ? k->r.max_warps : 1;
#define X(v) (x0 + w * (double)(v) / (double)xmax)
#define Y(v) (y0 - h * (double)(v) / (double)ymax)
  fprintf(f, "<g>\n<text x=\"%.1f\" y=\"%.1f\" class=\"pt\">%s</text>\n", ox + ML + w / 2, oy + MT - 12, titles[what]);
  /* grid, ticks and labels */
  long step = tick(xmax);
  char b[32];
  for (long v = 0; v <= xmax; v += step) {
    xlabel(b, sizeof b, what, v);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"gr\"/>", X(v), y0, X(v), y0 - h);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tx\">%s</text>\n", X(v), y0 + 16, b);
  }
  for (int q = 0; q <= 4; q++) {
    double yv = ymax * q / 4.0;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"gr\"/>", x0, Y(yv), x0 + w, Y(yv));
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ty\">%g</text>", x0 - 6, Y(yv) + 4, yv);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"tp\">%d%%</text>\n", x0 + w + 6, Y(yv) + 4, q * 25);
  }
  fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"ax\"/>\n", x0, y0 - h, w, h);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xl\">%s</text>\n", x0 + w / 2, y0 + 36, xnames[what]);
  fprintf(f, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" class=\"xl\">warps per SM</text>\n", ox + 16,
          y0 - h / 2);
  /* the curve: a step for each value (the threads graph's points are its
   * block sizes, drawn as dots too) */
  if (g->n) {
    fprintf(f, "<path class=\"cv\" d=\"M%.1f %.1f", X(what == OC_THREADS ? g->p[0].x : 0), Y(g->p[0].warps));
    for (int i = 1; i < g->n; i++) {
      if (what == OC_THREADS) fprintf(f, " L%.1f %.1f", X(g->p[i].x), Y(g->p[i].warps));
      else if (g->p[i].warps != g->p[i - 1].warps)
        fprintf(f, " H%.1f V%.1f", X(g->p[i].x - (what == OC_REGS ? 0.5 : 0)), Y(g->p[i].warps));
    }
    if (what != OC_THREADS) fprintf(f, " H%.1f", X(g->p[g->n - 1].x));
    fprintf(f, "\"/>\n");
    if (what == OC_THREADS)
      for (int i = 0; i < g->n; i++) fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" class=\"dt\"/>", X(g->p[i].x), Y(g->p[i].warps));
  }
  /* the chosen configuration */
  long cx = what == OC_THREADS ? k->r.c.threads : what == OC_REGS ? k->r.c.regs : (long)k->r.c.smem;
  if (cx <= xmax) {
    int cw = k->r.warps;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"mk\"/>\n", X(cx), y0, X(cx), Y(cw));
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" class=\"me\"><title>", X(cx), Y(cw));
    xlabel(b, sizeof b, OC_THREADS, cx);
    fprintf(f, "%s: %d warps per SM</title></circle>\n", b, cw);
    double lx = X(cx) + (X(cx) > x0 + w * 0.6 ? -8 : 8);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ml\" text-anchor=\"%s\">%ld</text>\n", lx,
            Y(cw) + (cw > ymax * 0.85 ? 16 : -8), X(cx) > x0 + w * 0.6 ? "end" : "start", cx);
  }
  fprintf(f, "</g>\n");
#undef X
#undef Y
}

static void svg(FILE *f, OcCase *cs, int n) {
  int W = 3 * PW, H = n * (PH + TOP) + 8;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", W, H,
          W, H);
  fprintf(f, "<style>\n"
             "text { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; font-size: 11px; fill: #222; }\n"
             ".hd { font-size: 13px; font-weight: bold; } .sb { font-size: 12px; fill: #444; }\n"
             ".pt { font-size: 12px; font-weight: bold; text-anchor: middle; }\n"
             ".tx, .xl { text-anchor: middle; } .ty { text-anchor: end; } .tp { text-anchor: start; fill: #777; }\n"
             ".gr { stroke: #e4e4e4; stroke-width: 1; } .ax { fill: none; stroke: #888; stroke-width: 1; }\n"
             ".cv { fill: none; stroke: #1f5fbf; stroke-width: 2; } .dt { fill: #1f5fbf; }\n"
             ".mk { stroke: #d62728; stroke-width: 1; stroke-dasharray: 4 3; } .me { fill: #d62728; }\n"
             ".ml { fill: #d62728; font-weight: bold; }\n"
             "</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  for (int i = 0; i < n; i++) {
    OcCase *k = &cs[i];
    double oy = i * (PH + TOP) + 4;
    fprintf(f, "<text x=\"12\" y=\"%.1f\" class=\"hd\">", oy + 16);
    if (k->title) esc(f, k->title), fputs(" — ", f);
    fprintf(f, "sm_%d, ", k->m->sm);
    esc(f, k->m->gpu);
    if (k->fields) fputs(" (", f), esc(f, k->fields), fputs(")", f);
    fprintf(f, "</text>\n<text x=\"12\" y=\"%.1f\" class=\"sb\">%d threads, %d registers per thread, %zu bytes of "
               "shared memory per block: %d block%s, %d of %d warps per SM (%.0f%%)",
            oy + 34, k->r.c.threads, k->r.c.regs, k->r.c.smem, k->r.o.blocks, k->r.o.blocks == 1 ? "" : "s",
            k->r.warps, k->r.max_warps, 100.0 * k->r.o.occupancy);
    if (k->r.o.blocks) fprintf(f, ", limited by %s", k->r.o.limiter);
    fprintf(f, "</text>\n");
    for (int g = 0; g < OC_NGRAPH; g++) panel(f, k, g, g * PW, oy + TOP);
  }
  fprintf(f, "</svg>\n");
}

static int run(char *const *argv) {
  pid_t pid;
  if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ)) return -1;
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* a program in PATH */
static bool found(const char *prog) {
  const char *path = getenv("PATH");
  if (!path) return false;
  char buf[4096];
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, ":");
    snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, prog);
    if (n && access(buf, X_OK) == 0) return true;
    p += n + (p[n] == ':');
  }
  return false;
}

static bool is_png(const char *path) {
  unsigned char h[8] = {0};
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t n = fread(h, 1, 8, f);
  fclose(f);
  return n == 8 && !memcmp(h, "\x89PNG\r\n\x1a\n", 8);
}

int oc_plot(const char *path, OcCase *cs, int n) {
  size_t l = strlen(path);
  bool png = l > 4 && !strcasecmp(path + l - 4, ".png");
  if (!png && !(l > 4 && !strcasecmp(path + l - 4, ".svg"))) {
    fprintf(stderr, "cucc-occupancy: --plot %s: the file's name must end in .svg or .png\n", path);
    return 2;
  }
  char tmp[4096];
  if (png) {
    const char *d = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/cucc-occ-XXXXXX.svg", d && *d ? d : "/tmp");
    int fd = mkstemps(tmp, 4);
    if (fd < 0) {
      fprintf(stderr, "cucc-occupancy: cannot make a temporary file: %s\n", strerror(errno));
      return 1;
    }
    close(fd);
  }
  const char *svgpath = png ? tmp : path;
  FILE *f = fopen(svgpath, "w");
  if (!f) {
    fprintf(stderr, "cucc-occupancy: cannot write %s: %s\n", svgpath, strerror(errno));
    return 1;
  }
  svg(f, cs, n);
  if (fclose(f)) {
    fprintf(stderr, "cucc-occupancy: cannot write %s\n", svgpath);
    return 1;
  }
  if (!png) return 0;
  /* a converter, if any: each is tried, and its output must be a PNG */
  int rc = 1;
  bool any = false;
  if (found("rsvg-convert")) {
    any = true;
    char *argv[] = {"rsvg-convert", "-b", "white", "-o", (char *)path, tmp, NULL};
    rc = run(argv) == 0 && is_png(path) ? 0 : 1;
  }
  if (rc && (found("magick") || found("convert"))) {
    any = true;
    char *argv[] = {found("magick") ? "magick" : "convert", tmp, (char *)path, NULL};
    rc = run(argv) == 0 && is_png(path) ? 0 : 1;
  }
  unlink(tmp);
  if (rc) {
    if (any) fprintf(stderr, "cucc-occupancy: converting the plot to %s failed; --plot FILE.svg needs no converter\n", path);
    else
      fprintf(stderr, "cucc-occupancy: a .png needs rsvg-convert (Debian: apt-get install librsvg2-bin) or "
                      "ImageMagick; --plot FILE.svg needs nothing\n");
  }
  return rc;
}
