using System.Diagnostics;
using System.Globalization;
using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>
/// <c>--memory-phases [name] [--batches N]</c>: whether a document's time follows the machine's memory latency. Batch
/// after batch in one process, it times a pointer chase (50,000 dependent reads at random places in 16 MB, whose time
/// is the memory latency and nothing else), then UTF-8 and string calls of our serializer in turn, 30 of each per
/// batch, and prints each one's best and median per batch. On a machine whose memory is shared with other work, the
/// control moves from batch to batch; a document whose walk waits on memory moves with it, and UTF-8 and string calls
/// interleaved in the same batches see the same phases. The default document is GeoJSON, 8 batches.
/// </summary>
public static class MemoryPhaseRunner
{
    private const int CallsPerBatch = 30;
    private const int ChaseLength = 1 << 22;
    private const int ChaseReads = 50_000;
    private const int WarmupCalls = 50;

    /// <summary>Whether <paramref name="args"/> ask for this runner.</summary>
    public static bool Handles(string[] args) => args.Length > 0 && args[0] == "--memory-phases";

    public static void Run(string[] args)
    {
        string name = "corpus/geojson-streets";
        int batches = 8;
        for (int i = 1; i < args.Length; i++)
        {
            if (args[i] == "--batches")
            {
                batches = int.Parse(args[++i], CultureInfo.InvariantCulture);
            }
            else
            {
                name = args[i];
            }
        }

        using var engine = new Engine();
        JsValue document = Corpus.ParseFile(engine, Corpus.Find(name));
        int[] chase = CreateChase();
        (Func<JsValue, double> utf8Call, Func<JsValue, double> stringCall) = WarmupRunner.WarmOurOutputs(engine, document, WarmupCalls);

        Console.WriteLine($"Memory phases: {name}, {batches} batches of {CallsPerBatch} calls each, .NET {Environment.Version}, {Environment.ProcessorCount} cores. Best and median per batch, µs.");
        Console.WriteLine();
        Console.WriteLine("| batch | control: best | control: median | UTF-8: best | UTF-8: median | string: best | string: median |");
        Console.WriteLine("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (int batch = 1; batch <= batches; batch++)
        {
            var control = new List<double>(CallsPerBatch);
            var utf8 = new List<double>(CallsPerBatch);
            var text = new List<double>(CallsPerBatch);
            for (int i = 0; i < CallsPerBatch; i++)
            {
                control.Add(Chase(chase));
                utf8.Add(utf8Call(document) * 1e6);
                text.Add(stringCall(document) * 1e6);
            }

            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"| {batch} | {control.Min():F0} | {Statistics.Median(control):F0} | {utf8.Min():F0} | {Statistics.Median(utf8):F0} | {text.Min():F0} | {Statistics.Median(text):F0} |"));
        }
    }

    // One cycle through every slot in a random order, so that each read's address comes from the read before it.
    private static int[] CreateChase()
    {
        var random = new Random(1);
        int[] order = [.. Enumerable.Range(0, ChaseLength)];
        random.Shuffle(order);
        int[] next = new int[ChaseLength];
        for (int i = 0; i < ChaseLength; i++)
        {
            next[order[i]] = order[(i + 1) % ChaseLength];
        }

        return next;
    }

    private static double Chase(int[] next)
    {
        long start = Stopwatch.GetTimestamp();
        int at = 0;
        for (int i = 0; i < ChaseReads; i++)
        {
            at = next[at];
        }

        double microseconds = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
        GC.KeepAlive(at);
        return microseconds;
    }
}
