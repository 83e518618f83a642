using BenchmarkDotNet.Running;
using JsonStringify.Benchmarks;

// --paired [filter] measures both sides in alternating batches in this process (see PairedRunner). Otherwise, with no
// arguments the default BenchmarkDotNet suite runs without prompting; arguments pass through to BenchmarkDotNet.
// --warmup [names] and --late-shape [first:second,...] measure each side in fresh processes (see WarmupRunner).
if (WarmupRunner.Handles(args))
{
    WarmupRunner.Run(args);
    return;
}

if (args.Length > 0 && args[0] == "--paired")
{
    PairedRunner.Run(args.Length > 1 ? args[1] : null);
    return;
}

string[] effective = args.Length == 0 ? ["--filter", "*"] : args;
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(effective);
