// The protocol GIDAuthentication's fetcherAuthorizer returns, as GTMSessionFetcher's
// GTMSessionFetcher.h declares it (the members an app calls; the fetcher-service ones left out),
// transcribed as facts for Tests/ImportedNames/run.sh.
#include "Foundation.h"
#pragma clang assume_nonnull begin
@protocol GTMFetcherAuthorizationProtocol <NSObject>
- (void)authorizeRequest:(nullable NSMutableURLRequest *)request delegate:(id)delegate didFinishSelector:(SEL)sel;
- (void)stopAuthorization;
- (void)stopAuthorizationForRequest:(NSURLRequest *)request;
- (BOOL)isAuthorizingRequest:(NSURLRequest *)request;
- (BOOL)isAuthorizedRequest:(NSURLRequest *)request;
@property(strong, readonly, nullable) NSString *userEmail;
@optional
@property(readonly) BOOL canAuthorize;
@property(assign) BOOL shouldAuthorizeAllRequests;
- (void)authorizeRequest:(nullable NSMutableURLRequest *)request completionHandler:(void (^)(NSError *_Nullable error))handler;
@end
#pragma clang assume_nonnull end
