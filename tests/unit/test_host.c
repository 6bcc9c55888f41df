/*
 * Host functions for tests/unit/check_host_lib.c (libcgr-test-host.so):
 * each leaves a trace the test reads back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cugraphrun/host.h>

/* Declared with the header's type: a wrong signature does not compile. */
cugraphrun_host_fn scale, third_fails, describe, silent, long_message;

/* Loading runs this: with CGR_TEST_HOST_SAY set, tests/cli.test sees when it happens. */
__attribute__((constructor)) static void loaded(void)
{
	if (getenv("CGR_TEST_HOST_SAY"))
		fputs("libcgr-test-host: loaded\n", stderr);
}

/* Multiply every element of buffer 1 (i32) by the number arg says. */
int scale(struct cugraphrun_call *call)
{
	int k = call->arg ? atoi(call->arg) : 1;
	int *x = call->buffers[0].data;
	for (size_t i = 0; i < call->buffers[0].count; i++)
		x[i] *= k;
	return 0;
}

/* Fail on the node's third run, with a message; pass on the others. */
int third_fails(struct cugraphrun_call *call)
{
	if (call->run != 2)
		return 0;
	snprintf(call->message, call->message_size, "run %lu of node '%s' is the third",
		 call->run + 1, call->node);
	return 7;
}

/*
 * What the call says of itself, into buffer 1 (u64): the ABI, how many
 * buffers, and each one's type, element size and count.
 */
int describe(struct cugraphrun_call *call)
{
	unsigned long long *out = call->buffers[0].data;
	size_t k = 0;
	out[k++] = call->abi;
	out[k++] = call->nbuffers;
	for (size_t i = 0; i < call->nbuffers && k + 3 <= call->buffers[0].count; i++) {
		out[k++] = (unsigned long long)call->buffers[i].type;
		out[k++] = call->buffers[i].elem_size;
		out[k++] = call->buffers[i].count;
	}
	return strcmp(call->buffers[1].type_name, "f32") == 0 ? 0 : 1;
}

/* A failure with no message, and one whose message fills the room given. */
int silent(struct cugraphrun_call *call)
{
	(void)call;
	return -1;
}

int long_message(struct cugraphrun_call *call)
{
	memset(call->message, 'x', call->message_size);
	return 1;
}
