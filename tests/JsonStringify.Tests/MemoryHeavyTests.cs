using Jint;
using Jint.Native;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>Tests that need gigabytes: one at a time, after the parallel ones, so that two never add up.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MemoryHeavyDefinition
{
    public const string Name = "Memory-heavy";
}

[Collection(MemoryHeavyDefinition.Name)]
public class MemoryHeavyTests
{
    // 108 references to one 10M-char string, which ends in a line break to escape, so that the writer copies it in
    // slices rather than keeping it whole: the output would be 1,080,000,433 chars, past the longest .NET string
    // (1,073,741,791), which is noticed while the 108th is being copied, before the output outgrows a string. Every
    // chunk of those 2 GB goes back to the pool; each was filled to within a slice's room (4K chars) of its end.
    // SerializeToString makes a .NET string, so the JavaScript string limit (half as long) is not the one in force.
    [Fact]
    public void OutputPastTheLongestStringIsARangeErrorNotAnOutOfMemoryException()
    {
        var pool = new CountingCharPool();
        using Engine engine = Js.WithStringify(
            (serializer, value, replacer, space) => serializer.SerializeToString(value, replacer, space) is { } json ? new JsString(json) : JsValue.Undefined,
            new JsonSerializerOptions { CharPool = pool });
        string result = Js.Run(engine, """
            var s = 'x'.repeat(9999999) + '\n';
            var a = new Array(108).fill(s);
            try { JSON.stringify(a); } catch (e) { (e instanceof RangeError) + '|' + e.message }
            """);

        Assert.Equal("true|Invalid string length", result);
        Assert.InRange(pool.MaxOutstandingChars, JsonConstants.MaxStringLength - 10_000_000, (long)(JsonConstants.MaxStringLength * 1.01));
        Assert.Equal(pool.Rented, pool.Returned);
    }
}
