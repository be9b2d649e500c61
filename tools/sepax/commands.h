/* sepax (the program): its commands, and what they share: which scene to run and the options every
 * command takes. */
#ifndef SEPAX_TOOL_COMMANDS_H
#define SEPAX_TOOL_COMMANDS_H

#include "scene.h"

#include <stdio.h>

/// Exit statuses of every command.
enum { EXIT_DONE = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

/// Options every command that runs a scene understands.
typedef struct scene_options {
    const char* scene; /* a file, an embedded scene's name, or NULL for the default */
    long steps;        /* < 0: the scene's own */
    double dt;         /* <= 0: the scene's own */
    scene_unknown_keys unknown;
} scene_options;

/// Reads argv[*i] (and its value) when it is one of the shared options or the scene; returns 1 when
/// used, 0 when not one of them, -1 (after a message) when it is malformed.
int scene_option(int argc, char** argv, int* i, scene_options* o, const char* command);

/// Reads and builds the scene the options name (a file; else an embedded scene of that name; none:
/// the embedded default) with --dt applied. Prints the error and returns false when anything is wrong.
bool scene_open(const scene_options* o, scene* out);

/// Steps the options ask for: --steps, else the scene's.
uint32_t scene_steps(const scene_options* o, const scene* s);

/// Says what is wrong with an option not taken: a value missing after one of `with_value`
/// (NULL-terminated), or an option that does not exist. Returns EXIT_USAGE.
int option_error(const char* command, const char* option, const char* const* with_value);

/// A positive number option's value, or -1 with a message.
double parse_positive(const char* text, const char* option, const char* command, bool whole);

int command_run(int argc, char** argv);
int command_render(int argc, char** argv);
int command_bench(int argc, char** argv);

#endif
