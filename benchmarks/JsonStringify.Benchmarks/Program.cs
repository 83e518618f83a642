using BenchmarkDotNet.Running;
using JsonStringify.Benchmarks;

// --paired [--apart] [glob...] measures both sides in alternating batches, in this process or each in its own (see
// PairedRunner). Otherwise, with no arguments the default BenchmarkDotNet suite runs without prompting; arguments pass
// through to BenchmarkDotNet.
// --warmup [names] and --late-shape [first:second,...] measure each side in fresh processes, --alternate [names] both
// sides taking turns in fresh processes (see WarmupRunner). --memory-phases [name] times a document beside a memory
// latency control, batch after batch (see MemoryPhaseRunner). --cpu-cost [names] prints what UTF-8 and string calls
// cost the whole process, collections included (see CpuCostRunner).
// --ab jint|<another JsonStringify.dll> compares best calls side by side in this process (see AbRunner).
if (WarmupRunner.Handles(args))
{
    return WarmupRunner.Run(args);
}

if (MemoryPhaseRunner.Handles(args))
{
    MemoryPhaseRunner.Run(args);
    return 0;
}

if (CpuCostRunner.Handles(args))
{
    CpuCostRunner.Run(args);
    return 0;
}

if (args.Length > 0 && args[0] == PairedRunner.ChildArgument)
{
    return PairedRunner.RunChild(args[1..]);
}

if (args.Length > 0 && args[0] == "--paired")
{
    return PairedRunner.Run(args[1..]);
}

if (args.Length > 0 && args[0] == "--ab")
{
    return AbRunner.Run(args[1..]);
}

if (args.Contains("--help") || args.Contains("-h"))
{
    Console.WriteLine("""
        Modes (the first argument; docs/benchmarks.md says what each measures and how the figures there were made):
          (none) or BenchmarkDotNet's own arguments   the BenchmarkDotNet suite, every benchmark without arguments
          --paired [--apart] [glob...]                Jint and ours in alternating batches, per scenario (below)
          --ab jint|string|<dll> [options] [docs]     best calls side by side, per document (below)
          --warmup [docs]                             first call, first 200 calls and steady state, in new processes
          --late-shape [first:second,...]             a new document's first calls late in a process's life
          --alternate [docs]                          both sides taking turns in each new process, three rounds
                                                      (these three take --processes N, --string and --trace DIR)
          --memory-phases [--batches N] [doc]         a document timed beside a memory-latency control, batch by batch
          --cpu-cost [--calls N] [docs]               what UTF-8 and string calls cost the whole process, collections
                                                      included

        """);
    Console.WriteLine(PairedRunner.Usage);
    Console.WriteLine();
    Console.WriteLine(AbRunner.Usage);
    Console.WriteLine();
}

string[] effective = args.Length == 0 ? ["--filter", "*"] : args;
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(effective);
return 0;
