/* helper.c: plain C helper linked into the multi-file test. */
int helper_c(int v) {
  int r = 0;
  for (int i = 0; i < v; i++)
    r += v;
  return r;
}
