using System.Runtime.CompilerServices;
using Jint.Native.Object;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>
/// Identity for the cycle check. Jint may hand out a new wrapper each time a CLR object is read, so two wrappers of
/// the same CLR instance are the same object, as Jint's serializer treats them. Everything else compares by reference.
/// </summary>
internal sealed class ObjectIdentity : IEqualityComparer<ObjectInstance>
{
    public static readonly ObjectIdentity Instance = new();

    private ObjectIdentity()
    {
    }

    public static bool Same(ObjectInstance a, ObjectInstance b) =>
        ReferenceEquals(a, b)
        || (a is IObjectWrapper x && b is IObjectWrapper y && x.Target is not null && ReferenceEquals(x.Target, y.Target));

    public bool Equals(ObjectInstance? x, ObjectInstance? y) =>
        ReferenceEquals(x, y) || (x is not null && y is not null && Same(x, y));

    public int GetHashCode(ObjectInstance obj) =>
        RuntimeHelpers.GetHashCode(obj is IObjectWrapper { Target: { } target } ? target : obj);
}
