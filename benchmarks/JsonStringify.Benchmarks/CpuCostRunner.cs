using System.Diagnostics;
using System.Globalization;
using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>
/// <c>--cpu-cost [names...] [--calls N]</c>: what a call costs the whole process, as UTF-8 into a reused
/// ArrayBufferWriter and as a string. A best call leaves out the collections a call causes, and with a background
/// collector on another core much of a collection's work never shows in the calling thread's time at all: a string
/// result of a megabyte is a large object, and a run of such calls keeps that collector busy. So for each document, in
/// rounds that take the two outputs in turn, this prints for N calls in a row (200 unless given) the best call, the
/// mean time of a call, and the CPU time the process spent per call on all its threads (the collector's included), with
/// the number of full collections they caused. The default documents are the wider corpus and the classic three.
/// </summary>
public static class CpuCostRunner
{
    private const int Rounds = 3;
    private const int WarmupCalls = 100;
    private const int SettleMilliseconds = 200;

    /// <summary>Whether <paramref name="args"/> ask for this runner.</summary>
    public static bool Handles(string[] args) => args.Length > 0 && args[0] == "--cpu-cost";

    public static void Run(string[] args)
    {
        var names = new List<string>();
        int calls = 200;
        for (int i = 1; i < args.Length; i++)
        {
            if (args[i] == "--calls")
            {
                calls = int.Parse(args[++i], CultureInfo.InvariantCulture);
            }
            else
            {
                names.Add(args[i]);
            }
        }

        if (names.Count == 0)
        {
            names.AddRange(Corpus.Wide.Concat(Corpus.Files).Select(Corpus.Name));
        }

        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"CPU cost: {calls} calls in a row per output, {Rounds} rounds alternating UTF-8 and string, .NET {Environment.Version}, {Environment.ProcessorCount} cores, server GC {System.Runtime.GCSettings.IsServerGC}. Per call, µs; each cell the range over the rounds."));
        Console.WriteLine();
        Console.WriteLine("| document | UTF-8: best | UTF-8: mean | UTF-8: CPU | string: best | string: mean | string: CPU | full collections, UTF-8 / string |");
        Console.WriteLine("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        foreach (string name in names)
        {
            Measure(name, calls);
        }
    }

    private static void Measure(string name, int calls)
    {
        using var engine = new Engine();
        JsValue document = Corpus.ParseFile(engine, Corpus.Find(name));
        (Func<JsValue, double> utf8Call, Func<JsValue, double> stringCall) = WarmupRunner.WarmOurOutputs(engine, document, WarmupCalls);

        var utf8 = new List<Cost>();
        var text = new List<Cost>();
        for (int round = 0; round < Rounds; round++)
        {
            utf8.Add(Run(utf8Call, document, calls));
            text.Add(Run(stringCall, document, calls));
        }

        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"| {name} | {Range(utf8, c => c.Best)} | {Range(utf8, c => c.Mean)} | {Range(utf8, c => c.Cpu)} | {Range(text, c => c.Best)} | {Range(text, c => c.Mean)} | {Range(text, c => c.Cpu)} | {utf8.Sum(c => c.FullCollections)} / {text.Sum(c => c.FullCollections)} |"));
    }

    // Calls in a row, after a full collection of what came before and a pause in which the runtime's background threads
    // (a collection the other side started, the JIT's) finish, so that each side pays for its own work.
    private static Cost Run(Func<JsValue, double> call, JsValue document, int calls)
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        Thread.Sleep(SettleMilliseconds);
        using Process process = Process.GetCurrentProcess();
        TimeSpan cpuBefore = process.TotalProcessorTime;
        int fullBefore = GC.CollectionCount(2);
        double best = double.MaxValue;
        long start = Stopwatch.GetTimestamp();
        for (int i = 0; i < calls; i++)
        {
            best = Math.Min(best, call(document) * 1e6);
        }

        double mean = Stopwatch.GetElapsedTime(start).TotalMicroseconds / calls;
        process.Refresh();
        double cpu = (process.TotalProcessorTime - cpuBefore).TotalMicroseconds / calls;
        return new Cost(best, mean, cpu, GC.CollectionCount(2) - fullBefore);
    }

    private static string Range(List<Cost> costs, Func<Cost, double> of)
    {
        string low = Format(costs.Min(of));
        string high = Format(costs.Max(of));
        return low == high ? low : $"{low}–{high}";
    }

    private static string Format(double microseconds) =>
        microseconds < 100 ? microseconds.ToString("F1", CultureInfo.InvariantCulture) : microseconds.ToString("N0", CultureInfo.InvariantCulture);

    private readonly record struct Cost(double Best, double Mean, double Cpu, int FullCollections);
}
