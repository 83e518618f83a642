using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using Jint;
using Jint.Native;
using JsonStringify;
using JsonStringify.Benchmarks;

// Jint's serializer and this library's, UTF-8 into a reused buffer writer and a string, take turns on each document in
// batches of 10 calls: a third of --seconds untimed, then the rest timed; the table gives each side's best timed call
// and the ratios to Jint's. The documents are testdata/'s classic three and its corpus, or the files named.
//   JsonStringify.NativeAot.Benchmarks [--seconds S] [--public] [file ...]
const int Batch = 10;
double seconds = 3;
bool fastPath = true;
var files = new List<string>();
for (int i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "--seconds":
            if (i + 1 == args.Length || !double.TryParse(args[++i], CultureInfo.InvariantCulture, out seconds) || seconds <= 0)
            {
                Console.Error.WriteLine("--seconds takes a positive number of seconds.");
                return 2;
            }

            break;
        case "--public":
            fastPath = false;
            break;
        default:
            files.Add(args[i]);
            break;
    }
}

if (files.Count == 0)
{
    string testdata = Path.Combine(AppContext.BaseDirectory, "testdata");
    files.AddRange(Directory.GetFiles(Path.Combine(testdata, "corpus"), "*.json").Order(StringComparer.Ordinal));
    files.AddRange(((string[])["canada.json", "citm_catalog.json", "twitter.json"]).Select(name => Path.Combine(testdata, name)));
}

Console.WriteLine(
    $"{(RuntimeFeature.IsDynamicCodeCompiled ? "Code compiled at run time (publish with NativeAOT to measure it compiled ahead of time)" : "NativeAOT")}, "
    + $"fast path {(fastPath ? "on" : "off")}, {seconds} s per document, best call per side in µs.");
Console.WriteLine();
Console.WriteLine("| document | Jint | ours, UTF-8 | ours ÷ Jint | ours, string | ours ÷ Jint |");
Console.WriteLine("| --- | ---: | ---: | ---: | ---: | ---: |");
var utf8Ratios = new List<double>();
var stringRatios = new List<double>();
foreach (string file in files)
{
    var engine = new Engine();
    JsValue document = engine.Evaluate("JSON.parse").Call(JsValue.Undefined, [new JsString(File.ReadAllText(file))]);
    var jint = new Jint.Native.Json.JsonSerializer(engine);
    var ours = new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = fastPath });
    var buffer = new ArrayBufferWriter<byte>();
    Action[] sides =
    [
        () => jint.Serialize(document, JsValue.Undefined, JsValue.Undefined),
        () =>
        {
            buffer.ResetWrittenCount();
            ours.Serialize(document, buffer);
        },
        () => ours.SerializeToString(document),
    ];
    double[] best = [double.MaxValue, double.MaxValue, double.MaxValue];
    // Rounds until the time is up, the last always timed: a document whose untimed rounds outlast the time still gets
    // one timed round.
    var clock = Stopwatch.StartNew();
    for (bool last = false; !last;)
    {
        last = clock.Elapsed.TotalSeconds >= seconds;
        bool timed = last || clock.Elapsed.TotalSeconds >= seconds / 3;
        for (int side = 0; side < sides.Length; side++)
        {
            for (int call = 0; call < Batch; call++)
            {
                long start = Stopwatch.GetTimestamp();
                sides[side]();
                double micros = Stopwatch.GetElapsedTime(start).TotalMicroseconds;
                if (timed)
                {
                    best[side] = Math.Min(best[side], micros);
                }
            }
        }
    }

    utf8Ratios.Add(best[1] / best[0]);
    stringRatios.Add(best[2] / best[0]);
    Console.WriteLine(FormattableString.Invariant(
        $"| {Path.GetFileName(file)} | {best[0]:F1} | {best[1]:F1} | {best[1] / best[0]:F3} | {best[2]:F1} | {best[2] / best[0]:F3} |"));
}

Console.WriteLine();
Console.WriteLine(FormattableString.Invariant(
    $"Medians of ours ÷ Jint's over {files.Count} documents: UTF-8 {Statistics.Median(utf8Ratios):F3}, string {Statistics.Median(stringRatios):F3}."));

return 0;
