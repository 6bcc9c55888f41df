/* Monotonic seconds (see monotime.h). */
#include "config.h"

#include <time.h>

#include "monotime.h"

double monotime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
