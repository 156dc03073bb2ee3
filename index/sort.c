/* sort.c: LSD radix sort (see sort.h). */
#include "index/sort.h"

#include <stdlib.h>
#include <string.h>

int ix_radix_sort(uint64_t *a, uint64_t n, uint32_t bits)
{
  if (n < 2) return 1;
  uint64_t *tmp = malloc(n * sizeof *tmp);
  if (!tmp) return 0;
  for (uint32_t shift = 0; shift < bits; shift += 8) {
    uint64_t count[257] = { 0 };
    for (uint64_t i = 0; i < n; i++) count[((a[i] >> shift) & 255) + 1]++;
    for (int d = 0; d < 256; d++) count[d + 1] += count[d];
    for (uint64_t i = 0; i < n; i++) tmp[count[(a[i] >> shift) & 255]++] = a[i];
    memcpy(a, tmp, n * sizeof *a);
  }
  free(tmp);
  return 1;
}
