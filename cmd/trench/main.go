// Command trench trains, evaluates and plays Trench AIs. Run "trench help"
// for the list of subcommands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"trench/internal/excerpt"
	"trench/nn/gemm"
)

// command is one subcommand of the trench binary.
type command struct {
	name    string
	summary string
	// usage is the argument synopsis and examples shown by --help.
	usage string
	// takesArgs says the command reads arguments besides its flags; the
	// others refuse any.
	takesArgs bool
	// setup declares the command's flags on fs and returns the function
	// that runs the command once the flags are parsed; it gets the
	// remaining arguments.
	setup func(fs *pflag.FlagSet) func(args []string, stdout, stderr io.Writer) error
}

// commands lists every subcommand, in the order "trench help" shows them.
var commands = []command{
	trainCommand,
	selfplayCommand,
	statusCommand,
	perftCommand,
	playCommand,
	serveCommand,
	engineCommand,
	analysisCommand,
	arenaCommand,
	rateCommand,
	reportCommand,
	reanalyseCommand,
	forkCommand,
	openingsCommand,
	exportCommand,
	benchCommand,
}

// exitError carries a process exit code chosen by a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usage returns the error of a command line that cannot run, as
// fmt.Errorf formats it: the command exits with status 2.
func usage(format string, args ...any) error {
	return &exitError{2, fmt.Errorf(format, args...)}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := findCommand(args[1]); ok {
				printCommandHelp(stdout, c)
				return 0
			}
			fmt.Fprintf(stderr, "trench: unknown command %s\n", excerpt.Quote(args[1]))
			return 2
		}
		printHelp(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := findCommand(args[0])
	if !ok {
		fmt.Fprintf(stderr, "trench: unknown command %s (run \"trench help\")\n", excerpt.Quote(args[0]))
		return 2
	}
	if c.name == trainCommand.name && wantsNNUE(args[1:]) {
		c = trainNNUECommand
	}
	fs := pflag.NewFlagSet("trench "+c.name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printCommandHelp(stdout, c) }
	exec := c.setup(fs)
	err := fs.Parse(args[1:])
	if errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "trench %s: %s (run \"trench %s --help\")\n", c.name, describeFlagError(err), c.name)
		return 2
	}
	if !c.takesArgs && fs.NArg() > 0 {
		fmt.Fprintf(stderr, "trench %s: unexpected argument %s\n", c.name, excerpt.Quote(fs.Arg(0)))
		return 2
	}
	if err := gemm.EnvError(); err != nil {
		fmt.Fprintf(stderr, "trench %s: %v\n", c.name, err)
		return 2
	}
	err = exec(fs.Args(), stdout, stderr)
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "trench %s: %v\n", c.name, err)
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

func findCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "trench: self-play training, evaluation and play for the game of Trench")
	fmt.Fprintln(w, "\nUsage: trench COMMAND [flags]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"trench help COMMAND\" or \"trench COMMAND --help\" for a command's flags and examples.")
}

func printCommandHelp(w io.Writer, c command) {
	fmt.Fprintf(w, "trench %s: %s\n\n%s", c.name, c.summary, c.usage)
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	c.setup(fs)
	if fs.HasFlags() {
		fmt.Fprintln(w, "\nFlags:")
		fmt.Fprint(w, fs.FlagUsages())
	}
}
