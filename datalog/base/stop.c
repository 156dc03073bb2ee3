/* stop.c: see stop.h. */
#include "datalog/base/stop.h"

#include "datalog/base/clock.h"

int dl_stop_requested(const dl_stop *s)
{
  if (!s) return DL_STOP_NONE;
  if ((s->cancel && *s->cancel) || (s->interrupt && atomic_load_explicit(s->interrupt, memory_order_relaxed)))
    return DL_STOP_CANCEL;
  if (s->deadline > 0 && dl_clock_now() >= s->deadline) return DL_STOP_DEADLINE;
  return DL_STOP_NONE;
}

const char *dl_stop_message(int why)
{
  return why == DL_STOP_DEADLINE ? "time budget exhausted" : "interrupted";
}
